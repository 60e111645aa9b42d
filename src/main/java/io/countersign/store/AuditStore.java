package io.countersign.store;

import io.countersign.engine.event.AuditAnchor;
import io.countersign.engine.event.AuditReport;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The audit chain over governance events, decisions and purges: verified by walking it, anchored by its head.
 * The tables it keeps, beside the events and decisions: {@link #TABLES}.
 */
public final class AuditStore {
    /** Every table of the audit chain (see V14__audit_chain.sql), for whoever grants privileges on the store. */
    public static final List<String> TABLES = List.of("audit_chain", "audit_head",
            "audit_unchained");

    private final Database database;

    AuditStore(Database database) {
        this.database = database;
    }

    /**
     * Walks the chain and compares every covered row with what is stored.
     *
     * @param since  rows recorded before this are not read (their entries' links still are), or null for all
     * @param anchor an anchor printed earlier: its entry must still be there with the same hash, or null
     */
    public AuditReport verify(Instant since, AuditAnchor anchor) {
        return database.read("verify the audit chain", connection -> AuditVerifier.verify(connection, since,
                anchor));
    }

    /** The chain's current head, to keep elsewhere; empty before its first entry. */
    public Optional<AuditAnchor> anchor() {
        return database.read("read the audit chain's head", AuditVerifier::head);
    }
}
