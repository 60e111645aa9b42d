package io.countersign.store;

import java.util.List;

/**
 * The SQLite store file is damaged: SQLite reported it corrupt, or its check found problems. Once a process
 * meets this it writes nothing more to the file; the way on is a backup.
 */
public final class DamagedStoreException extends StoreUnavailableException {
    private final List<String> problems;

    DamagedStoreException(String message, List<String> problems, Throwable cause) {
        super(message, cause);
        this.problems = List.copyOf(problems);
    }

    /** What SQLite's check said, one line per problem; empty when the damage was met by a statement. */
    public List<String> problems() {
        return problems;
    }
}
