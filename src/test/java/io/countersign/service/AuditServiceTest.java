package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.AuditAnchor;
import io.countersign.engine.event.AuditFinding;
import io.countersign.engine.event.AuditPurge;
import io.countersign.engine.event.AuditReport;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit use cases over the demo's SQLite store: who may verify, a purge by its admin, tampering named. */
class AuditServiceTest {
    @TempDir
    Path folder;
    DemoStore demo;
    AuditService audit;

    @BeforeEach
    void open() {
        demo = new DemoStore(folder);
        audit = demo.runtime.audit();
    }

    @AfterEach
    void close() {
        demo.close();
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("countersign.db"));
             Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    @Test
    void supervisorsAndAdminsVerifyOperatorsMayNot() {
        assertThat(audit.verify(demo.supervisor, null, null).verified()).isTrue();
        assertThat(audit.anchor(demo.admin)).isPresent();
        assertThatThrownBy(() -> audit.verify(demo.operator, null, null))
                .isInstanceOf(NotPermittedException.class)
                .hasMessageContaining("may not verify audit; that needs the role admin or supervisor");
    }

    @Test
    void thePurgeIsChainedUnderTheAdminsName() {
        demo.runtime.store().events().record(new GovernanceEvent("ancient", Instant.parse("2001-01-01T00:00:00Z"),
                EventType.TOOL_DENIED, "disabled", "bulk_tool", null, null, null, null, null, null));
        AuditAnchor before = audit.anchor(demo.admin).orElseThrow();

        demo.runtime.events().purgeOlderThan(demo.admin, Duration.ofDays(3650));
        AuditReport report = audit.verify(demo.supervisor, null, before);

        assertThat(report.verified()).as("%s", report.findings()).isTrue();
        assertThat(report.purges()).singleElement().extracting(AuditPurge::by, AuditPurge::events)
                .containsExactly(demo.admin.name(), 1L);
    }

    @Test
    void aChangedDecisionIsNamedThroughTheService() throws SQLException {
        String runId = demo.runOf("release-notes-bot");
        String digest = demo.runtime.runs().card(demo.admin, runId).orElseThrow().digest();
        demo.runtime.runs().decide(demo.operator, runId, digest,
                List.of(Decision.CallVerdict.deny(0, "Wrong file")));
        assertThat(audit.verify(demo.supervisor, null, null).verified()).isTrue();

        execute("UPDATE decisions SET summary = summary || ' '");

        assertThat(audit.verify(demo.supervisor, null, null).findings()).extracting(AuditFinding::message)
                .singleElement().asString().matches("decision \\d+ \\(entry \\d+\\) was changed: its stored values"
                        + " do not make the hash the chain recorded");
    }
}
