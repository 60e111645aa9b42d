package io.countersign.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.PreparedStatement;

/** Copies of a SQLite store file made by SQLite itself ({@code VACUUM INTO}): one consistent file, log included. */
final class StoreCopies {
    private StoreCopies() {
    }

    /**
     * The copy kept beside a SQLite store before a migration changes it: {@code countersign.db} at schema version 13
     * is copied to {@code countersign.schema-13.db}. A copy of the same version from an earlier attempt is replaced.
     */
    static Path beforeMigration(Database database, Path store, String version) {
        Path copy = besideStore(store, version);
        Path partial = copy.resolveSibling(copy.getFileName() + ".part");
        try {
            Files.deleteIfExists(partial);
            vacuumInto(database, partial, "keep a copy of the store before migrating it");
            Files.move(partial, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new StoreUnavailableException("The store " + store + " was not migrated: its copy " + copy
                    + " cannot be written (" + e.getMessage() + ").", e);
        }
        return copy;
    }

    /** Where {@link #beforeMigration} keeps the copy of a store at this schema version. */
    static Path besideStore(Path store, String version) {
        String name = store.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String extension = dot > 0 ? name.substring(dot) : ".db";
        return store.resolveSibling(stem + ".schema-" + version + extension);
    }

    /** Writes the whole store, as one read transaction sees it, into a new file. */
    static void vacuumInto(Database database, Path target, String what) {
        database.read(what, connection -> {
            try (PreparedStatement vacuum = connection.prepareStatement("VACUUM INTO ?")) {
                vacuum.setString(1, target.toString());
                vacuum.execute();
            }
            return null;
        });
    }
}
