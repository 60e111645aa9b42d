package io.countersign.store;

import static io.countersign.store.TestEvents.event;
import static io.countersign.store.TestRuns.approval;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.event.AuditAnchor;
import io.countersign.engine.event.AuditFinding;
import io.countersign.engine.event.AuditReport;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.RunClaims.ClaimResult;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * The audit chain against tampering with raw JDBC, bypassing the store: one byte changed, a row deleted, one
 * inserted, two rows' contents swapped; a purge verifies as a purge; concurrent appends keep one chain.
 */
abstract class AuditChainSuite extends StoreFixture {

    private void execute(String sql, Object... values) throws SQLException {
        try (Connection connection = rawDataSource(location).getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            statement.executeUpdate();
        }
    }

    private static List<GovernanceEvent> events(String prefix, int count, Instant from) {
        return IntStream.range(0, count).mapToObj(i -> event(prefix + i, from.plusSeconds(i))
                .type(EventType.INVOCATION_DENIED).reason("outside_workspace").tool("fs.write")
                .rule("workspace.boundary").actor("maria").build()).toList();
    }

    private AuditReport verify() {
        return store.audit().verify(null, null);
    }

    private static List<String> messages(AuditReport report) {
        return report.findings().stream().map(AuditFinding::message).toList();
    }

    @Test
    void appendsVerifyAndSayWhereTheChainBegins() {
        assertThat(verify().beginning()).isEqualTo("audit chain has no entry yet; nothing was stored before it");
        store.events().appendAll(events("e", 5, NOW));
        store.events().record(events("single", 1, NOW).get(0));

        AuditReport report = verify();

        assertThat(report.verified()).as("%s", report.findings()).isTrue();
        assertThat(report.rowsChecked()).isEqualTo(6);
        assertThat(report.head()).map(AuditReport.Entry::seq).contains(2L);
        assertThat(report.beginning()).startsWith("audit chain begins at entry 1, " + NOW);
        assertThat(store.audit().anchor()).contains(report.head().orElseThrow().anchor());
    }

    @Test
    void anEntryStoresItsRowsIdsMarksAndHashesAsVersionOneWritesThem() throws SQLException {
        // pinned: stores in the field hold chains of this format, and a new build must extend them alike
        store.events().appendAll(events("e", 3, NOW));

        try (Connection connection = rawDataSource(location).getConnection();
             Statement statement = connection.createStatement();
             ResultSet entry = statement.executeQuery("SELECT row_ids, row_marks, row_hash, prev_hash, hash"
                     + " FROM audit_chain WHERE seq = 1")) {
            assertThat(entry.next()).isTrue();
            assertThat(entry.getString(1)).isEqualTo("e0\ne1\ne2");
            assertThat(entry.getString(2)).isEqualTo("e687e685266ff79f1fe1a48e128093e457b3374544d9c7d4");
            assertThat(entry.getString(3)).isEqualTo("1d0d3aa6f3cfc3c972760b7a0b893249b5b75e29cf0e56751bb74be3faecaabf");
            assertThat(entry.getString(4)).isEqualTo("086a9c68a6ffa9ffea90e6234e603eee50278a190c604084c43fc242ec82720e");
            assertThat(entry.getString(5)).isEqualTo("4ab05ecd0a0121e44c413d61d29705a5c73bbd9efdc997c6e1383491f716e7d3");
        }
    }

    @Test
    void oneChangedByteOfAnEventIsNamed() throws SQLException {
        store.events().appendAll(events("e", 5, NOW));
        execute("UPDATE governance_events SET reason_code = 'outside_workspacf' WHERE id = 'e3'");

        assertThat(messages(verify())).containsExactly("event e3 (entry 1) was changed: its stored values do not"
                + " make the hash the chain recorded");
    }

    @Test
    void aDeletedEventIsNamed() throws SQLException {
        store.events().appendAll(events("e", 3, NOW));
        store.events().appendAll(events("f", 3, NOW));
        execute("DELETE FROM governance_events WHERE id = 'f1'");

        assertThat(messages(verify())).containsExactly("event f1 (entry 2) was removed: it is not stored and no"
                + " purge lists it");
    }

    @Test
    void anInsertedEventIsNamed() throws SQLException {
        store.events().appendAll(events("e", 3, NOW));
        try (Connection connection = rawDataSource(location).getConnection();
             PreparedStatement insert = connection.prepareStatement(EventStore.INSERT)) {
            EventStore.bind(insert, events("forged", 1, NOW.minusSeconds(60)).get(0));
            insert.executeUpdate();
        }

        assertThat(messages(verify())).containsExactly("event forged0 is in no entry of the chain: it was inserted");
    }

    @Test
    void twoEventsWithTheirContentsSwappedAreBothNamed() throws SQLException {
        store.events().appendAll(List.of(event("a", NOW).reason("outside_workspace").actor("maria").build(),
                event("b", NOW.plusSeconds(1)).reason("secret_path").actor("jonas").build()));
        try (Connection connection = rawDataSource(location).getConnection();
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE governance_events SET id = 'swap' WHERE id = 'a'");
            statement.executeUpdate("UPDATE governance_events SET id = 'a' WHERE id = 'b'");
            statement.executeUpdate("UPDATE governance_events SET id = 'b' WHERE id = 'swap'");
        }

        assertThat(messages(verify())).containsExactly(
                "event a (entry 1) was changed: its stored values do not make the hash the chain recorded",
                "event b (entry 1) was changed: its stored values do not make the hash the chain recorded");
    }

    @Test
    void aChangedOrRemovedEntryBreaksTheChain() throws SQLException {
        for (int i = 0; i < 4; i++) {
            store.events().appendAll(events("e" + i + "-", 2, NOW));
        }
        execute("UPDATE audit_chain SET recorded_at = recorded_at + 1 WHERE seq = 2");
        assertThat(messages(verify())).containsExactly("entry 2 (events, recorded 2026-03-01T12:00:00.000000001Z)"
                + " was changed: its values do not make its hash");

        execute("UPDATE audit_chain SET recorded_at = recorded_at - 1 WHERE seq = 2");
        execute("DELETE FROM audit_chain WHERE seq = 3");
        assertThat(messages(verify())).contains("the chain jumps from entry 2 to entry 4: 1 entry was removed",
                "event e2-0 is in no entry of the chain: it was inserted");
    }

    @Test
    void anEntryChangedIntoNonsenseIsNamedNotACrash() throws SQLException {
        store.events().appendAll(events("old", 3, NOW.minus(Duration.ofDays(40))));
        store.events().purgeOlderThan(Duration.ofDays(30), "ana");
        store.events().appendAll(events("new", 1, NOW));
        execute("UPDATE audit_chain SET detail = 'before=soon' WHERE seq = 2");
        execute("UPDATE audit_chain SET kind = 'gift' WHERE seq = 3");

        assertThat(messages(verify())).contains("entry 2 is a purge without its cutoff (\"before=soon\")",
                "entry 3 has the kind \"gift\", which no Countersign writes");
    }

    @Test
    void aPurgeVerifiesAsAPurgeAndARemovalBesideItDoesNot() throws SQLException {
        store.events().appendAll(events("old", 30, NOW.minus(Duration.ofDays(40))));
        store.events().appendAll(events("new", 3, NOW.minus(Duration.ofDays(1))));

        assertThat(store.events().purgeOlderThan(Duration.ofDays(30), "ana")).isEqualTo(30);
        AuditReport report = verify();

        assertThat(report.verified()).as("%s", report.findings()).isTrue();
        assertThat(report.purges()).singleElement().extracting(purge -> purge.sentence()).isEqualTo("purge of 30"
                + " events before 2026-01-30T12:00:00Z by ana (entry 3, " + NOW + ")");

        execute("DELETE FROM governance_events WHERE id = 'new2'");
        assertThat(messages(verify())).containsExactly("event new2 (entry 2) was removed: it is not stored and no"
                + " purge lists it");
    }

    @Test
    void anAnchorProvesNothingBeforeItWasRewritten() throws SQLException {
        store.events().appendAll(events("e", 2, NOW));
        AuditAnchor anchor = store.audit().anchor().orElseThrow();
        store.events().appendAll(events("f", 2, NOW));

        assertThat(store.audit().verify(null, anchor).verified()).isTrue();

        execute("UPDATE audit_chain SET hash = ? WHERE seq = 1", "0".repeat(64));
        assertThat(messages(store.audit().verify(null, anchor))).contains("entry 1 has the hash " + "0".repeat(64)
                + ", not the anchor's " + anchor.hash() + ": the chain was rewritten up to the anchor");
        assertThat(messages(store.audit().verify(null, new AuditAnchor(9, anchor.hash())))).contains("the anchor's"
                + " entry 9 is not in the chain (it ends at entry 2): entries were removed");
    }

    @Test
    void sinceLeavesOlderRowsUnreadButStillFindsNewerTampering() throws SQLException {
        store.events().appendAll(events("e", 2, NOW));
        execute("UPDATE governance_events SET actor = 'mallory' WHERE id = 'e0'");

        assertThat(store.audit().verify(NOW.plusSeconds(1), null).verified()).isTrue();
        assertThat(store.audit().verify(NOW, null).verified()).isFalse();
    }

    @Test
    void decisionsAreChainedAndAWithdrawnOneIsNoGap() throws SQLException {
        TestRuns fixture = new TestRuns();
        store.runs().create("r1", "writer", "maria", "Tidy the notes", false, NOW);
        RunOutcome.WaitingForApproval pause = fixture.firstPause("r1");
        StoreSuite.recordOutcome(store.runs(), pause, NOW);
        PausedState state = pause.state();
        assertThat(store.runs().claim(approval(state, "jonas", NOW))).isInstanceOf(ClaimResult.Claimed.class);
        StoreSuite.release(store.runs(), state, NOW);
        assertThat(store.runs().claim(approval(state, "jonas", NOW))).isInstanceOf(ClaimResult.Claimed.class);

        assertThat(verify().verified()).as("%s", verify().findings()).isTrue();

        execute("UPDATE decisions SET decided_by = 'mallory'");
        assertThat(messages(verify())).singleElement().asString().matches("decision \\d+ \\(entry \\d+\\) was"
                + " changed: its stored values do not make the hash the chain recorded");
    }

    @Test
    void concurrentAppendsFromTwoStoresKeepOneChain() throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        try (Store other = open()) {
            List<CompletableFuture<Void>> writers = new ArrayList<>();
            for (Store writer : List.of(store, other)) {
                String name = writer == store ? "a" : "b";
                writers.add(CompletableFuture.runAsync(() -> {
                    await(start);
                    for (int i = 0; i < 40; i++) {
                        writer.events().appendAll(events(name + i + "-", 3, NOW));
                    }
                }));
            }
            start.countDown();
            CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get();
        }

        AuditReport report = verify();
        assertThat(report.verified()).as("%s", report.findings()).isTrue();
        assertThat(report.head()).map(AuditReport.Entry::seq).contains(80L);
        assertThat(report.rowsChecked()).isEqualTo(240);
    }

    @Test
    void eventsStoredBeforeTheChainAreNotCoveredAndSaidSo() throws Exception {
        store.close();
        location = freshLocation();
        Flyway.configure().dataSource(rawDataSource(location)).locations(Migrations.LOCATION)
                .placeholders(dialect().migrationPlaceholders()).target("13").loggers("slf4j").load().migrate();
        try (Connection connection = rawDataSource(location).getConnection();
             PreparedStatement insert = connection.prepareStatement(TestEvents.INSERT_BEFORE_V27)) {
            for (GovernanceEvent old : events("before", 4, NOW.minusSeconds(3600))) {
                EventStore.bind(insert, old);
                insert.executeUpdate();
            }
        }
        store = open();
        store.events().appendAll(events("after", 2, NOW));

        AuditReport report = verify();

        assertThat(report.verified()).as("%s", report.findings()).isTrue();
        assertThat(report.beginning()).isEqualTo("audit chain begins at entry 1, " + NOW + "; the 4 events stored before it are"
                + " not covered");
        try (Connection connection = rawDataSource(location).getConnection();
             Statement statement = connection.createStatement();
             ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM audit_unchained")) {
            count.next();
            assertThat(count.getLong(1)).isEqualTo(4);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
