package io.countersign.console.denials;

import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.event.AuditReport;
import io.countersign.service.AuditService;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The denial browser's line about the audit chain: "Audit verified up to …", or the first thing found wrong. The
 * walk reads every covered row, so it runs in the background, when the browser opens and after a purge.
 */
public final class AuditStatus {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final AuditService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ZoneId zone;
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");

    public AuditStatus(AuditService service, Actor actor, Executor executor, Messages messages, ZoneId zone) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.zone = Objects.requireNonNull(zone, "zone");
    }

    /** Verifies the chain in the background and says what was found. */
    public void refresh() {
        status.set(messages.get("denials.audit.checking"));
        Tasks.create(() -> service.verify(actor, null, null))
                .onSuccess(report -> status.set(sentence(report)))
                .onError(failure -> status.set(messages.get("denials.audit.failed",
                        String.valueOf(failure.getMessage()))))
                .runOnce(executor);
    }

    private String sentence(AuditReport report) {
        if (!report.verified()) {
            return messages.get("denials.audit.broken", report.findings().get(0).message(),
                    report.findings().size() - 1);
        }
        return report.head().map(head -> messages.get("denials.audit.verified", TIME.format(head.at().atZone(zone)),
                head.seq())).orElseGet(() -> messages.get("denials.audit.empty"));
    }

    /** What the last walk found. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }
}
