package io.countersign.store;

import java.util.List;

/** The store was written by a newer Countersign whose schema this build does not know; it is left untouched. */
public final class NewerStoreException extends StoreUnavailableException {
    private final List<String> unknownVersions;
    private final String latestKnownVersion;

    NewerStoreException(String location, List<String> unknownVersions, String latestKnownVersion) {
        super("The store " + location + " was written by a newer Countersign (schema version"
                + (unknownVersions.size() == 1 ? " " : "s ") + String.join(", ", unknownVersions)
                + "; this Countersign knows up to version " + latestKnownVersion
                + "); upgrade Countersign to open it.");
        this.unknownVersions = List.copyOf(unknownVersions);
        this.latestKnownVersion = latestKnownVersion;
    }

    /** The schema versions applied to the store that this build does not have. */
    public List<String> unknownVersions() {
        return unknownVersions;
    }

    /** The newest schema version this build has. */
    public String latestKnownVersion() {
        return latestKnownVersion;
    }
}
