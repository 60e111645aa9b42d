package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.event.AuditAnchor;
import io.countersign.engine.event.AuditReport;
import io.countersign.store.AuditStore;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** The audit use cases over the store's {@link AuditStore}. */
public final class DefaultAuditService implements AuditService {
    private final AuditStore audit;

    public DefaultAuditService(AuditStore audit) {
        this.audit = Objects.requireNonNull(audit, "audit");
    }

    @Override
    public AuditReport verify(Actor actor, Instant since, AuditAnchor anchor) {
        Permissions.require(actor, Operation.VERIFY_AUDIT);
        return audit.verify(since, anchor);
    }

    @Override
    public Optional<AuditAnchor> anchor(Actor actor) {
        Permissions.require(actor, Operation.VERIFY_AUDIT);
        return audit.anchor();
    }
}
