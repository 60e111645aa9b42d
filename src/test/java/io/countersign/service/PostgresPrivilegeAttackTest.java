package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.NetworkntSchemaValidator;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;

/**
 * A shared store after {@code store init}: logins that bypass Countersign and write with raw JDBC are refused by
 * PostgreSQL itself (a missing privilege, or the decision policy), and the same attempts through Countersign are
 * refused with one sentence. The legitimate paths, another operator approving a four-eyes run and a worker's login
 * carrying out a decision an operator left to workers, still go through.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresPrivilegeAttackTest {
    private static final String SCHEMA = "guarded";
    private static final String INSUFFICIENT_PRIVILEGE = "42501";

    private String base;
    private String ownRun;
    private String ownDigest;
    private String ownRunForJonas;
    private String othersRun;
    private String othersDigest;
    private List<String> initStatements;
    private Store asOlga;
    private DefaultRunService olgaRuns;
    private Path ledgers;

    @BeforeAll
    void aSharedStoreWithWaitingRuns(EmbeddedPostgres postgres, @TempDir Path folder) throws Exception {
        ledgers = folder;
        base = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres?currentSchema=" + SCHEMA + "&user=";
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE SCHEMA " + SCHEMA);
            for (String login : List.of("olga", "jonas", "sam", "wendy", "ada", "kai")) {
                statement.execute("CREATE ROLE " + login + " LOGIN");
            }
        }
        // The database's owner prepares the store: agents, the team's users, then store init.
        try (ServiceRig owner = ServiceRig.open(location("postgres"), List.of(new LedgerTool(folder.resolve("l"))),
                LedgerTool.scripts())) {
            Actor admin = owner.store.users().add("postgres", Set.of(Role.ADMIN), Actor.of("test-setup"));
            owner.store.users().add("sam", Set.of(Role.SUPERVISOR), admin);
            initStatements = owner.store.initShared();
            // an admin who is no superuser: what store init grants must be enough for their work
            DefaultUserService users = new DefaultUserService(owner.store.users());
            users.add(admin, "ada", Set.of(Role.ADMIN));
            // the worker process's login, made a worker as countersign user set does it
            assertThat(users.setRoles(admin, "wendy", Set.of(Role.WORKER))).isInstanceOf(UserResult.NoSuchUser.class);
            assertThat(users.add(admin, "wendy", Set.of(Role.WORKER))).isInstanceOf(UserResult.Added.class);
            try (Statement statement = raw("postgres").createStatement()) {
                statement.execute("UPDATE agent_configurations SET four_eyes = TRUE");
            }
        }
        asOlga = Store.open(location("olga"));
        olgaRuns = runService(asOlga);
        ownRun = olgaRuns.start(actor(asOlga), LedgerTool.ONE_PAUSE, "Record mine", false).runId();
        ownDigest = olgaRuns.card(actor(asOlga), ownRun).orElseThrow().digest();
        ownRunForJonas = olgaRuns.start(actor(asOlga), LedgerTool.ONE_PAUSE, "Record mine, jonas approves", false)
                .runId();
        try (Store asJonas = Store.open(location("jonas"))) {
            DefaultRunService jonasRuns = runService(asJonas);
            othersRun = jonasRuns.start(actor(asJonas), LedgerTool.ONE_PAUSE, "Record his", false).runId();
            othersDigest = jonasRuns.card(actor(asJonas), othersRun).orElseThrow().digest();
        }
    }

    @AfterAll
    void close() {
        if (asOlga != null) {
            asOlga.close();
        }
    }

    @Test
    void initRunsTheGrantsOfTheOneMapAndMakesTheTeamsLoginsMembers() throws Exception {
        // the group roles are the server's, so an earlier test of this JVM may have created them
        assertThat(count("SELECT COUNT(*) FROM pg_roles WHERE rolname IN ('countersign_owner',"
                + " 'countersign_operator', 'countersign_supervisor', 'countersign_admin', 'countersign_worker')"))
                .isEqualTo(5);
        assertThat(initStatements).contains("ALTER TABLE \"guarded\".\"decisions\" OWNER TO countersign_owner",
                "GRANT SELECT, INSERT ON \"guarded\".\"governance_events\" TO countersign_operator",
                "GRANT countersign_operator TO \"olga\"", "GRANT countersign_supervisor TO \"sam\"");
        assertThat(initStatements).noneMatch(sql -> sql.contains("governance_events") && sql.startsWith("GRANT")
                && (sql.contains("UPDATE") || sql.contains("DELETE")));
    }

    @Test
    void initRunsAgainAsTheOwnerAndTheGuardsHold() {
        try (Store owner = Store.open(location("postgres"))) {
            assertThat(owner.initShared()).doesNotContain("CREATE ROLE countersign_operator NOLOGIN")
                    .contains("GRANT countersign_operator TO \"olga\"");
        }
        refusedByPostgres("olga", decision(othersRun, othersDigest, "jonas", true));
    }

    @Test
    void anOperatorCannotWriteADecisionForAnotherPerson() {
        refusedByPostgres("olga", decision(othersRun, othersDigest, "jonas", true));
        refusedByPostgres("olga", decision(ownRun, ownDigest, "jonas", true));
    }

    @Test
    void aDeadlinesDecisionPassesOnlyAsADenialOfACardWhoseDeadlinePassed() throws Exception {
        refusedByPostgres("olga", decision(othersRun, othersDigest, "deadline", false));
        try (Connection olga = raw("olga"); Statement statement = olga.createStatement()) {
            olga.setAutoCommit(false);
            statement.execute("UPDATE runs SET deadline = 1 WHERE id = '" + othersRun + "'");
            statement.execute(decision(othersRun, othersDigest, "deadline", false));
            assertThatThrownBy(() -> statement.execute(decision(othersRun, othersDigest, "deadline", true)))
                    .isInstanceOfSatisfying(SQLException.class,
                            refused -> assertThat(refused.getSQLState()).isEqualTo(INSUFFICIENT_PRIVILEGE));
            olga.rollback();
        }
    }

    @Test
    void anOperatorCannotApproveTheirOwnRunUnderFourEyes() {
        refusedByPostgres("olga", decision(ownRun, ownDigest, "olga", true));

        DecisionResult refused = olgaRuns.decide(actor(asOlga), ownRun, ownDigest, approveFirst());
        assertThat(refused).isEqualTo(new DecisionResult.FourEyes(ownRun));
    }

    @Test
    void anOperatorCannotRewriteAnotherPersonsWaitingCall() throws Exception {
        String rewrite = "UPDATE runs SET paused_state = replace(paused_state, '\"only\"', '\"everything\"')"
                + " WHERE id = '" + othersRun + "'";
        assertThat(refusedByPostgres("olga", rewrite)).isEqualTo("run " + othersRun + ": the card of a run that is"
                + " waiting for approval changes only by a decision and a new pause; its call, arguments and digest"
                + " stay as recorded");
        assertThat(refusedByPostgres("ada", rewrite)).startsWith("run " + othersRun + ": the card of a run");
        // Nor by leaving the card without a decision and pausing anew with another call.
        assertThat(refusedByPostgres("olga", "UPDATE runs SET status = 'running' WHERE id = '" + othersRun + "'"))
                .isEqualTo("run " + othersRun + ": a run that is waiting for approval leaves its card only on a"
                        + " decision recorded for it");
        assertThat(refusedByPostgres("olga", "UPDATE runs SET status = 'running', claimed_decision = 424242"
                + " WHERE id = '" + othersRun + "'")).isEqualTo("run " + othersRun + ": it left its card on decision"
                + " 424242, which is not recorded for that card");
        assertThat(refusedByPostgres("olga", "UPDATE runs SET status = 'completed' WHERE id = '" + othersRun + "'"))
                .isEqualTo("run " + othersRun + ": a run that is waiting for approval cannot become completed; the"
                        + " lifecycle has no such transition");
        assertThat(refusedByPostgres("olga", "UPDATE runs SET initiator = 'olga' WHERE id = '" + othersRun + "'"))
                .contains("who started a run");
        assertThat(refusedByPostgres("olga", "DELETE FROM runs WHERE id = '" + othersRun + "'"))
                .isEqualTo("permission denied for table runs");
        assertThat(refusedByPostgres("olga", "INSERT INTO runs (id, agent, initiator, prompt, unattended, status,"
                + " created_at, updated_at, pause_number, paused_state, digest, transcript, history, iterations,"
                + " prompt_tokens, completion_tokens) SELECT 'forged', agent, initiator, prompt, unattended, status,"
                + " created_at, updated_at, pause_number, paused_state, digest, transcript, history, iterations,"
                + " prompt_tokens, completion_tokens FROM runs WHERE id = '" + othersRun + "'"))
                .contains("a run starts running or queued, with no card and no decision");

        // the card is still the one jonas's run recorded
        assertThat(olgaRuns.card(actor(asOlga), othersRun).orElseThrow().digest()).isEqualTo(othersDigest);
    }

    @Test
    void anOperatorCannotChangeASettingARoleOrAnEvent() {
        refusedByPostgres("olga", "INSERT INTO tool_settings (setting_key, setting_value)"
                + " VALUES ('tool_enabled:ledger_append', 'false')");
        refusedByPostgres("olga", "UPDATE agent_configurations SET four_eyes = FALSE");
        refusedByPostgres("olga", "INSERT INTO user_roles (user_name, role) VALUES ('olga', 'admin')");
        refusedByPostgres("olga", "GRANT countersign_admin TO olga");
        refusedByPostgres("olga", "UPDATE governance_events SET detail = 'nothing happened'");
        refusedByPostgres("olga", "DELETE FROM governance_events");
        refusedByPostgres("olga", "TRUNCATE governance_events");

        Actor olga = actor(asOlga);
        assertThatThrownBy(() -> new DefaultSettingsService(ToolRegistry.of(), asOlga.settings(), asOlga.runs(),
                asOlga.users()).change(olga, List.of(new SettingRequest.ToolEnabled("ledger_append", false))))
                .isInstanceOf(NotPermittedException.class)
                .hasMessage("olga (operator) may not change tool settings; that needs the role admin");
        assertThatThrownBy(() -> new DefaultUserService(asOlga.users()).setRoles(olga, "olga",
                Set.of(Role.OPERATOR, Role.ADMIN)))
                .isInstanceOf(NotPermittedException.class)
                .hasMessage("olga (operator) may not manage users; that needs the role admin");
    }

    @Test
    void aSupervisorCannotDecide() throws Exception {
        refusedByPostgres("sam", decision(othersRun, othersDigest, "sam", true));
        refusedByPostgres("sam", decision(othersRun, othersDigest, "sam", false));

        try (Store asSam = Store.open(location("sam"))) {
            DecisionResult refused = runService(asSam).decide(actor(asSam), othersRun, othersDigest, approveFirst());
            assertThat(refused).isEqualTo(new DecisionResult.NotPermitted(othersRun,
                    "sam (supervisor) may not decide; that needs the role admin or operator"));
        }
    }

    @Test
    void aWorkerCannotDecideStartARunOrChangeASetting() throws Exception {
        assertThat(member("wendy", "countersign_worker")).isTrue();
        assertThat(member("wendy", "countersign_operator")).isFalse();
        refusedByPostgres("wendy", decision(othersRun, othersDigest, "wendy", true));
        refusedByPostgres("wendy", decision(othersRun, othersDigest, "wendy", false));
        refusedByPostgres("wendy", "UPDATE decisions SET decided_by = 'wendy'");
        refusedByPostgres("wendy", "INSERT INTO runs (id, written_at_schema) VALUES ('forged', 27)");
        refusedByPostgres("wendy", "UPDATE tool_settings SET setting_value = 'false'");
        refusedByPostgres("wendy", "INSERT INTO user_roles (user_name, role) VALUES ('wendy', 'operator')");

        try (Store asWendy = Store.open(location("wendy"))) {
            Actor wendy = actor(asWendy);
            assertThat(wendy.roles()).containsExactly(Role.WORKER);
            DefaultRunService wendyRuns = runService(asWendy);
            assertThat(wendyRuns.decide(wendy, othersRun, othersDigest, approveFirst())).isEqualTo(
                    new DecisionResult.NotPermitted(othersRun,
                            "wendy (worker) may not decide; that needs the role admin or operator"));
            assertThatThrownBy(() -> wendyRuns.start(wendy, LedgerTool.ONE_PAUSE, "Mine now", false))
                    .isInstanceOf(NotPermittedException.class)
                    .hasMessage("wendy (worker) may not start run; that needs the role admin or operator");
        }
    }

    @Test
    void aWorkersLoginCarriesOutADecisionAnotherOperatorLeftToWorkers() throws Exception {
        String runId = olgaRuns.start(actor(asOlga), LedgerTool.ONE_PAUSE, "Record it, a worker carries it out",
                false).runId();
        try (Store asJonas = Store.open(location("jonas"))) {
            DefaultRunService jonasRuns = runService(asJonas);
            String digest = jonasRuns.card(actor(asJonas), runId).orElseThrow().digest();
            assertThat(execution(asJonas, jonasRuns).decideForWorker(actor(asJonas), runId, digest, approveFirst()))
                    .isInstanceOf(DecisionResult.Done.class);
        }
        Path ledger = ledgers.resolve("worker-ledger");
        try (Store asWendy = Store.open(location("wendy"))) {
            DefaultRunService wendyRuns = runService(asWendy, ledger);
            RunWorker.Report report = execution(asWendy, wendyRuns).worker(actor(asWendy),
                    RunWorker.Options.defaults().withDrain(true), progress -> { }).run();
            assertThat(report.decisionsCarriedOut()).isEqualTo(1);
            assertThat(report.failed()).isZero();
            assertThat(asWendy.runs().find(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        }
        // the decision is jonas's: the worker carried it out under his name and wrote none of its own
        assertThat(count("SELECT COUNT(*) FROM decisions WHERE run_id = '" + runId + "' AND decided_by = 'jonas'"))
                .isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM decisions WHERE decided_by = 'wendy'")).isZero();
        assertThat(LedgerTool.executions(ledger)).containsOnlyKeys(runId + " only");
    }

    @Test
    void aWorkersLoginAppliesAnOverdueDeadlinesDenial() throws Exception {
        String runId = olgaRuns.start(actor(asOlga), LedgerTool.ONE_PAUSE, "Record it unless time runs out", false)
                .runId();
        try (Statement statement = raw("postgres").createStatement()) {
            statement.execute("UPDATE runs SET deadline = 1, deadline_span = 60000000000, on_deadline = 'deny',"
                    + " escalation_role = 'ADMIN' WHERE id = '" + runId + "'");
        }
        try (Store asWendy = Store.open(location("wendy"))) {
            assertThat(runService(asWendy).applyDeadlines())
                    .contains(new DeadlineApplied(runId, DeadlineApplied.Outcome.DENIED, null));
        }
        assertThat(count("SELECT COUNT(*) FROM decisions WHERE run_id = '" + runId + "' AND decided_by = 'deadline'"))
                .isEqualTo(1);
    }

    @Test
    void eventsLeaveOnlyThroughTheAdminsPurge() throws Exception {
        refusedByPostgres("olga", "SELECT * FROM countersign_purge_events(0, 10)");
        refusedByPostgres("ada", "DELETE FROM governance_events");
        try (Store asAda = Store.open(location("ada"))) {
            long before = count("SELECT COUNT(*) FROM governance_events");
            long purged = new DefaultEventService(asAda.events(), asAda.runs(), asAda.users())
                    .purgeOlderThan(actor(asAda), java.time.Duration.ZERO);
            assertThat(purged).isEqualTo(before);
        }
        try (Store asOlgaAgain = Store.open(location("olga"))) {
            assertThatThrownBy(() -> new DefaultEventService(asOlgaAgain.events(), asOlgaAgain.runs(),
                    asOlgaAgain.users()).purgeOlderThan(actor(asOlgaAgain), java.time.Duration.ZERO))
                    .isInstanceOf(NotPermittedException.class)
                    .hasMessage("olga (operator) may not purge events; that needs the role admin");
        }
    }

    @Test
    void noLoginCanRewriteTheAuditChainAndItVerifiesAfterTheTeamsWork() {
        refusedByPostgres("olga", "UPDATE audit_chain SET hash = 'rewritten'");
        refusedByPostgres("olga", "DELETE FROM audit_chain");
        refusedByPostgres("olga", "DELETE FROM audit_head");
        refusedByPostgres("olga", "INSERT INTO audit_unchained (row_id) VALUES ('hidden')");
        refusedByPostgres("ada", "DELETE FROM audit_chain");
        refusedByPostgres("sam", "UPDATE audit_head SET seq = 0");

        try (Store asSam = Store.open(location("sam"))) {
            assertThat(asSam.audit().verify(null, null).findings()).isEmpty();
        }
    }

    @Test
    void anAdminWhoIsNoSuperuserGivesAndTakesTheGroupsThroughCountersign() throws Exception {
        try (Store asAda = Store.open(location("ada"))) {
            DefaultUserService users = new DefaultUserService(asAda.users());
            Actor ada = actor(asAda);
            assertThat(users.add(ada, "kai", Set.of(Role.OPERATOR))).isInstanceOf(UserResult.Added.class);
            assertThat(member("kai", "countersign_operator")).isTrue();

            assertThat(users.setRoles(ada, "kai", Set.of(Role.SUPERVISOR))).isInstanceOf(UserResult.Changed.class);
            assertThat(member("kai", "countersign_operator")).isFalse();
            assertThat(member("kai", "countersign_supervisor")).isTrue();
            refusedByPostgres("kai", decision(othersRun, othersDigest, "kai", true));

            assertThat(users.setRoles(ada, "kai", Set.of(Role.WORKER))).isInstanceOf(UserResult.Changed.class);
            assertThat(member("kai", "countersign_supervisor")).isFalse();
            assertThat(member("kai", "countersign_worker")).isTrue();
        }
    }

    @Test
    void anotherOperatorStillApprovesAFourEyesRunThroughCountersign() {
        try (Store asJonas = Store.open(location("jonas"))) {
            DefaultRunService jonasRuns = runService(asJonas);
            String digest = jonasRuns.card(actor(asJonas), ownRunForJonas).orElseThrow().digest();
            DecisionResult done = jonasRuns.decide(actor(asJonas), ownRunForJonas, digest, approveFirst());
            assertThat(done).isInstanceOf(DecisionResult.Done.class);
        }
    }

    private StoreLocation location(String login) {
        return new StoreLocation.Postgres(base + login);
    }

    private Connection raw(String login) throws SQLException {
        return DriverManager.getConnection(base + login);
    }

    private long count(String sql) throws SQLException {
        try (Connection connection = raw("postgres"); Statement statement = connection.createStatement();
             var row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private boolean member(String login, String group) throws SQLException {
        try (Connection connection = raw("postgres");
             PreparedStatement select = connection.prepareStatement("SELECT pg_has_role(?, ?, 'MEMBER')")) {
            select.setString(1, login);
            select.setString(2, group);
            try (var row = select.executeQuery()) {
                row.next();
                return row.getBoolean(1);
            }
        }
    }

    private static DefaultRunService runService(Store store) {
        return runService(store, Path.of("/dev/null"));
    }

    private static DefaultRunService runService(Store store, Path ledger) {
        return DefaultRunService.overStore(store, ToolRegistry.of(new LedgerTool(ledger)),
                new NetworkntSchemaValidator(),
                ScriptedChatModel.byModel(LedgerTool.scripts()), InvocationRules.none(), Clock.systemUTC(),
                IdGenerator.random(), Locale.ENGLISH);
    }

    private static DefaultExecutionService execution(Store store, DefaultRunService runs) {
        return new DefaultExecutionService(runs, store.runs(), store.runs(), store.users(), store.changes(),
                Clock.systemUTC(), IdGenerator.random());
    }

    private static Actor actor(Store store) {
        return store.users().signedIn("not-the-login");
    }

    private static List<Decision.CallVerdict> approveFirst() {
        return List.of(Decision.CallVerdict.approve(0));
    }

    private static String decision(String runId, String digest, String decidedBy, boolean approve) {
        return "INSERT INTO decisions (run_id, pause_number, decided_by, decided_at, kind, digest, summary, verdicts,"
                + " event_recorded, written_at_schema) VALUES ('" + runId + "', 99, '" + decidedBy + "', 0, 'APPROVAL',"
                + " '" + digest + "', 'by hand', '[{\"index\": 0, \"approved\": " + approve + "}]', FALSE, 27)";
    }

    /**
     * The statement fails with PostgreSQL's insufficient privilege (a missing grant, a row policy, or the guard on
     * runs); returns the server's message.
     */
    private String refusedByPostgres(String login, String sql) {
        Executable attempt = () -> {
            try (Connection connection = raw(login); PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.execute();
            }
        };
        Throwable refused = catchThrowable(attempt::execute);
        assertThat(refused).as(login + ": " + sql).isInstanceOfSatisfying(SQLException.class,
                failure -> assertThat(failure.getSQLState()).as(failure.getMessage()).isEqualTo(INSUFFICIENT_PRIVILEGE));
        return ((PSQLException) refused).getServerErrorMessage().getMessage();
    }
}
