package io.countersign.store;

import static io.countersign.store.TestEvents.event;
import static io.countersign.store.TestRuns.approval;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.event.EventType;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.port.RunClaims.ClaimResult;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.RunQueue.NextRun;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The round trips a pause and a decision's claim make to PostgreSQL, counted by the server itself
 * ({@code pg_stat_statements}, preloaded into a server of this test's own). Each statement the server ran is a round
 * trip, except the {@code BEGIN} the driver sends in the same message as a transaction's first statement; so is each
 * transaction's {@code COMMIT}, which the statistics leave out and the store counts.
 */
class PostgresRoundTripsTest {
    /** A query of a trigger function: it refers to the row being written as {@code NEW} or {@code OLD}. */
    private static final Pattern TRIGGER_QUERY = Pattern.compile("\\b(NEW|OLD)\\.[a-z_]+");
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static EmbeddedPostgres postgres;

    private final TestRuns fixture = new TestRuns();
    private StoreLocation location;
    private Store store;

    @BeforeAll
    static void startCountingServer() throws Exception {
        postgres = EmbeddedPostgres.builder()
                .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                .setServerConfig("pg_stat_statements.track_utility", "on")
                .setServerConfig("fsync", "off")
                .start();
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE EXTENSION pg_stat_statements");
        }
    }

    @AfterAll
    static void stopCountingServer() throws Exception {
        postgres.close();
    }

    @BeforeEach
    void openStore() throws SQLException {
        location = EmbeddedPostgresExtension.migratedDatabase(postgres);
        store = Store.open(location, StoreOptions.defaults().withClock(Clock.fixed(NOW, ZoneOffset.UTC)));
    }

    @AfterEach
    void closeStore() throws SQLException {
        store.close();
        EmbeddedPostgresExtension.drop(postgres, location);
    }

    @Test
    void aPauseTakesAtMostTwoRoundTrips() throws SQLException {
        // The agent's first pause in this process reads its deadlines once more; the others check them in place.
        paused("r0");
        RunLease lease = store.runs().create("r1", "writer", "maria", "Tidy the notes", false, NOW);
        RunOutcome.WaitingForApproval pause = fixture.firstPause("r1");

        Map<String, Long> ran = statementsOf(() -> store.runs().recordOutcome(lease, pause, NOW));

        assertThat(roundTrips(ran)).as("round trips of a pause: %s", ran).isLessThanOrEqualTo(2);
    }

    @Test
    void aRunningRunsRecordTakesOneRoundTripAndADeferredCommit() throws SQLException {
        paused("r0");
        StoreCommits before = store.commits();

        Map<String, Long> ran = statementsOf(() -> store.runs().create("r1", "writer", "maria", "Tidy the notes",
                false, NOW));

        // No BEGIN ran: the statement was its own transaction, committed with it rather than by a COMMIT of its own.
        assertThat(ran).as("statements of a new run's record").doesNotContainKey("BEGIN");
        ran.remove("COMMIT");
        assertThat(roundTrips(ran)).as("round trips of a new run's record: %s", ran).isEqualTo(1);
        assertThat(store.commits().since(before)).isEqualTo(new StoreCommits(0, 1));
    }

    @Test
    void aDecisionsClaimWithItsEventAndIntentTakesAtMostThreeRoundTrips() throws SQLException {
        // The first decision of the day creates its rows of counts; the others add to them, as measured here.
        assertThat(store.runs().claim(approval(paused("r0"), "jonas", NOW), start("r0")))
                .isInstanceOf(ClaimResult.Claimed.class);
        PausedState state = paused("r1");
        ClaimResult[] claim = new ClaimResult[1];

        Map<String, Long> ran = statementsOf(() -> claim[0] = store.runs().claim(approval(state, "jonas", NOW),
                start("r1")));

        assertThat(claim[0]).isInstanceOf(ClaimResult.Claimed.class);
        assertThat(roundTrips(ran)).as("round trips of a claim: %s", ran).isLessThanOrEqualTo(3);
    }

    @Test
    void aClaimThatLostToAnotherLocksNoRowAsItReadsWhoWon() throws SQLException {
        PausedState state = paused("r1");
        assertThat(store.runs().claimForWorker(approval(state, "jonas", NOW))).isInstanceOf(ClaimResult.Claimed.class);
        ClaimResult[] lost = new ClaimResult[1];

        Map<String, Long> ran = statementsOf(() -> lost[0] = store.runs().claimForWorker(approval(state, "ana",
                NOW.plusSeconds(1))));

        // A worker takes queued runs passing over locked rows: a loser's lock would hide the run just queued.
        assertThat(lost[0]).isInstanceOfSatisfying(DecisionResult.AlreadyDecided.class,
                decided -> assertThat(decided.winner().decidedBy()).isEqualTo("jonas"));
        assertThat(ran.keySet()).as("statements of a lost claim").noneMatch(query -> query.contains("FOR UPDATE"));
    }

    @Test
    void aClaimThatWaitedForTheWinnerEndsWithoutACommitSoThatItsLockOnTheRunGoesAtOnce() throws Exception {
        PausedState state = paused("r1");
        ExecutorService deciders = Executors.newFixedThreadPool(2);
        try (Connection holder = EmbeddedPostgresExtension.rawDataSource(location).getConnection()) {
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.executeQuery("SELECT id FROM runs WHERE id = 'r1' FOR UPDATE").close();
            }
            StoreCommits before = store.commits();
            Future<ClaimResult> won = deciders.submit(() -> store.runs().claimForWorker(approval(state, "jonas",
                    NOW)));
            awaitClaimsWaitingForTheRun(1);
            Future<ClaimResult> lost = deciders.submit(() -> store.runs().claimForWorker(approval(state, "ana",
                    NOW.plusSeconds(1))));
            awaitClaimsWaitingForTheRun(2);

            holder.commit();

            assertThat(won.get(30, TimeUnit.SECONDS)).isInstanceOf(ClaimResult.Claimed.class);
            assertThat(lost.get(30, TimeUnit.SECONDS)).isInstanceOfSatisfying(DecisionResult.AlreadyDecided.class,
                    decided -> assertThat(decided.winner().decidedBy()).isEqualTo("jonas"));
            // The loser's update waited for the winner's, then locked the run as the winner left it, queued for a
            // worker: committing that lock would have waited for a flush while workers passed over the run.
            assertThat(store.commits().since(before)).isEqualTo(new StoreCommits(1, 0));
        } finally {
            deciders.shutdownNow();
        }
    }

    @Test
    void aWorkersClaimOfTheNextRunTakesOneRoundTripAndSoDoesOneThatFindsNothing() throws SQLException {
        paused("r0");
        store.runs().enqueue("r1", "triage", "maria", "Sort the tickets", false, NOW);
        List<NextRun> claimed = new ArrayList<>();

        Map<String, Long> taken = statementsOf(() -> claimed.add(store.runs().claimNext("w1", NOW.plusSeconds(60),
                NOW)));
        Map<String, Long> none = statementsOf(() -> claimed.add(store.runs().claimNext("w2", NOW.plusSeconds(60),
                NOW)));

        assertThat(claimed.get(0).taken()).hasValueSatisfying(run -> assertThat(run.runId()).isEqualTo("r1"));
        assertThat(claimed.get(1)).isEqualTo(NextRun.EMPTY);
        for (Map<String, Long> ran : List.of(taken, none)) {
            // No BEGIN ran: the statement was its own transaction, committed with it.
            assertThat(ran).as("statements of a worker's claim").doesNotContainKey("BEGIN");
            ran.remove("COMMIT");
            assertThat(roundTrips(ran)).as("round trips of a worker's claim: %s", ran).isEqualTo(1);
        }
    }

    @Test
    void aQueuedRunAnotherTransactionHoldsIsReportedHeldInTheSameRoundTripAndTakenOnceItIsLetGo() throws Exception {
        store.runs().enqueue("r1", "triage", "maria", "Sort the tickets", false, NOW);
        List<NextRun> looks = new ArrayList<>();
        Map<String, Long> held;
        try (Connection holder = EmbeddedPostgresExtension.rawDataSource(location).getConnection()) {
            // As a deciding client's claim that lost its race holds the run it finds queued, until its rollback.
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.executeQuery("SELECT id FROM runs WHERE id = 'r1' FOR NO KEY UPDATE").close();
            }
            held = statementsOf(() -> looks.add(store.runs().claimNext("w1", NOW.plusSeconds(60), NOW)));
            holder.rollback();
        }
        looks.add(store.runs().claimNext("w1", NOW.plusSeconds(60), NOW));
        looks.add(store.runs().claimNext("w2", NOW.plusSeconds(60), NOW));

        assertThat(looks.get(0)).isEqualTo(NextRun.HELD);
        assertThat(looks.get(1).taken()).hasValueSatisfying(run -> assertThat(run.runId()).isEqualTo("r1"));
        assertThat(looks.get(2)).as("the run taken is held by nobody, and nothing else is queued")
                .isEqualTo(NextRun.EMPTY);
        held.remove("COMMIT");
        assertThat(roundTrips(held)).as("round trips of a claim that found the queue held: %s", held).isEqualTo(1);
    }

    @Test
    void aRunTakenAtANewerVersionThanTheClaimsSnapshotComesOnlyWithTheDecisionItWasQueuedWith() throws Exception {
        PausedState state = paused("r1");
        assertThat(store.runs().claimForWorker(approval(state, "jonas", NOW))).isInstanceOf(ClaimResult.Claimed.class);
        try (Connection client = EmbeddedPostgresExtension.rawDataSource(location).getConnection();
             Connection behind = EmbeddedPostgresExtension.rawDataSource(location).getConnection()) {
            // As when a worker carried the run through its next pause and a client queued it again with a new
            // decision after the claim's statement took its snapshot: the run's newest version, which the claim
            // locks, names a decision the snapshot cannot see. Here the new decision is not committed yet, and the
            // run's version is written past the guard (a superuser's replica role fires no trigger).
            client.setAutoCommit(false);
            try (Statement decide = client.createStatement(); Statement move = behind.createStatement()) {
                decide.execute("SET session_replication_role = replica");
                List<String> columns = decisionColumns(client);
                List<String> nextDecision = columns.stream().map(column -> switch (column) {
                    case "id" -> "9999";
                    case "pause_number" -> "pause_number + 1";
                    case "decided_by" -> "'ana'";
                    default -> column;
                }).toList();
                decide.executeUpdate("INSERT INTO decisions (" + String.join(", ", columns) + ") SELECT "
                        + String.join(", ", nextDecision) + " FROM decisions WHERE run_id = 'r1'");
                move.execute("SET session_replication_role = replica");
                move.executeUpdate("UPDATE runs SET pause_number = pause_number + 1, claimed_decision = 9999"
                        + " WHERE id = 'r1'");
            }

            assertThatThrownBy(() -> store.runs().claimNext("w1", NOW.plusSeconds(60), NOW))
                    .isInstanceOf(StoreException.class)
                    .hasMessage("run r1 was taken from the queue without its decision, which the store cannot read;"
                            + " it goes back to the queue when this worker's lease lapses");
            client.commit();
        }

        assertThat(store.runs().recoverAbandoned(NOW.plusSeconds(61))).extracting(StoredRun::runId)
                .containsExactly("r1");
        StoredRun taken = store.runs().claimNext("w2", NOW.plusSeconds(120), NOW.plusSeconds(61)).taken()
                .orElseThrow();
        assertThat(taken.lastDecision().decidedBy()).as("the decision the run was queued with").isEqualTo("ana");
    }

    /** The columns of {@code decisions} in their order. */
    private static List<String> decisionColumns(Connection connection) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (Statement read = connection.createStatement();
             ResultSet found = read.executeQuery("SELECT column_name FROM information_schema.columns"
                     + " WHERE table_name = 'decisions' AND table_schema = current_schema() ORDER BY ordinal_position")) {
            while (found.next()) {
                columns.add(found.getString(1));
            }
        }
        return columns;
    }


    /** What an approval of the writer's first pause starts: its event and the intent of its one call. */
    private static DecisionStart start(String runId) {
        return new DecisionStart(event("decided-" + runId, NOW).type(EventType.APPROVAL_DECIDED).run(runId)
                .agent("writer").actor("jonas").detail("approved 1, denied 0").build(),
                List.of(new ExecutionJournal.Intent("c1", "write")));
    }

    private PausedState paused(String runId) {
        RunLease lease = store.runs().create(runId, "writer", "maria", "Tidy the notes", false, NOW);
        RunOutcome.WaitingForApproval pause = fixture.firstPause(runId);
        store.runs().recordOutcome(lease, pause, NOW);
        return pause.state();
    }

    /** The statements the server ran in the store's database while the work ran, with how often each ran. */
    private Map<String, Long> statementsOf(Runnable work) throws SQLException {
        Map<String, Long> before = statementCalls();
        StoreCommits commitsBefore = store.commits();
        work.run();
        StoreCommits commits = store.commits().since(commitsBefore);
        Map<String, Long> after = statementCalls();
        Map<String, Long> ran = new HashMap<>();
        ran.put("COMMIT", commits.durable() + commits.deferred());
        after.forEach((query, calls) -> {
            long more = calls - before.getOrDefault(query, 0L);
            if (more > 0) {
                ran.put(query, more);
            }
        });
        return ran;
    }

    /**
     * Every statement but the {@code BEGIN}s, which travel with the statement after them, and the queries of the
     * guard's triggers on {@code runs} (they name the row as {@code NEW}), which the server runs on its own: a
     * deferred trigger fires at {@code COMMIT}, outside any statement, so the statistics count it as top-level.
     * Nor does the driver's {@code SET application_name} of a connection the pool opens meanwhile count.
     */
    private static long roundTrips(Map<String, Long> ran) {
        return ran.entrySet().stream().filter(entry -> !entry.getKey().equalsIgnoreCase("BEGIN")
                        && !TRIGGER_QUERY.matcher(entry.getKey()).find()
                        && !entry.getKey().startsWith("SET application_name"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** Waits until as many of the store's statements wait for a lock as the claims started. */
    private void awaitClaimsWaitingForTheRun(int claims) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
             PreparedStatement waiting = admin.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                     + " WHERE datname = ? AND wait_event_type = 'Lock'")) {
            waiting.setString(1, databaseName());
            while (true) {
                try (ResultSet count = waiting.executeQuery()) {
                    count.next();
                    if (count.getInt(1) >= claims) {
                        return;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(claims + " claims never waited for the run's lock");
                }
                Thread.sleep(10);
            }
        }
    }

    private String databaseName() {
        String url = ((StoreLocation.Postgres) location).jdbcUrl();
        return url.substring(url.lastIndexOf('/') + 1, url.indexOf('?'));
    }

    /** Read from the server's own database, so that the reads themselves are not counted. */
    private Map<String, Long> statementCalls() throws SQLException {
        String database = databaseName();
        Map<String, Long> calls = new HashMap<>();
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
             PreparedStatement select = admin.prepareStatement("SELECT s.query, s.calls FROM pg_stat_statements s"
                     + " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = ?")) {
            select.setString(1, database);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    calls.merge(rows.getString(1), rows.getLong(2), Long::sum);
                }
            }
        }
        return calls;
    }
}
