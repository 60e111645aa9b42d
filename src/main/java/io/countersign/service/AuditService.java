package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.event.AuditAnchor;
import io.countersign.engine.event.AuditReport;
import java.time.Instant;
import java.util.Optional;

/**
 * The audit chain over governance events, decisions and purges: supervisors and admins verify it and read its
 * head to keep elsewhere. Every method checks the acting user's roles and throws {@link NotPermittedException}
 * when they do not allow it.
 */
public interface AuditService {

    /**
     * Walks the chain and compares every covered row with what is stored.
     *
     * @param since  rows recorded before this are not read (their entries' links still are), or null
     * @param anchor an anchor kept earlier, whose entry must still be in the chain with its hash, or null
     */
    AuditReport verify(Actor actor, Instant since, AuditAnchor anchor);

    /** The chain's current head; empty before its first entry. */
    Optional<AuditAnchor> anchor(Actor actor);
}
