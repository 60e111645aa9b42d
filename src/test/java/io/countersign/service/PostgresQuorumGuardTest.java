package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ScriptedChatModel;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two-person approval on a shared PostgreSQL store after {@code store init}, with a real login per person: the
 * database itself keeps each kept approval to its login, its card and four eyes, and refuses an approval decision
 * written by hand before the agent's count of others approved.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresQuorumGuardTest {
    private static final String SCHEMA = "quorum_guarded";
    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final List<String> LOGINS = List.of("quinn", "rhea", "tess");

    private String base;
    private Path ledger;

    @BeforeAll
    void aSharedStoreWhoseAgentNeedsTwoApprovals(EmbeddedPostgres postgres, @TempDir Path folder) throws Exception {
        ledger = folder.resolve("ledger.txt");
        base = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres?currentSchema=" + SCHEMA + "&user=";
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE SCHEMA " + SCHEMA);
            for (String login : LOGINS) {
                statement.execute("CREATE ROLE " + login + " LOGIN");
            }
        }
        try (ServiceRig owner = ServiceRig.open(location("postgres"), List.of(new LedgerTool(ledger)),
                LedgerTool.scripts())) {
            owner.store.users().add("postgres", Set.of(Role.ADMIN), Actor.of("test-setup"));
            ServiceRig.operators(owner.store, LOGINS.toArray(String[]::new));
            try (Statement statement = raw("postgres").createStatement()) {
                statement.execute("UPDATE agent_configurations SET four_eyes = TRUE, approvals = 2");
            }
            owner.store.initShared();
        }
    }

    @Test
    void aKeptApprovalIsTheLoginsOwnOnTheCardItsRunWaitsOn() throws Exception {
        Card card = startAsQuinn();
        refusedByPostgres("rhea", approval(card, "tess"));
        refusedByPostgres("rhea", approval(new Card(card.run(), "not-the-digest"), "rhea"));
        // four eyes: the run's initiator is none of the approvers, in the database too
        refusedByPostgres("quinn", approval(card, "quinn"));
        refusedByPostgres("rhea", "UPDATE approvals SET approved_by = 'tess'");
        refusedByPostgres("rhea", "DELETE FROM approvals");
    }

    @Test
    void theLastApprovalWrittenByHandIsRefusedUntilTheOthersApproved() throws Exception {
        Card card = startAsQuinn();
        refusedByPostgres("tess", decision(card, "tess"));
        try (Store asRhea = Store.open(location("rhea"))) {
            assertThat(runService(asRhea).decide(actor(asRhea), card.run(), card.digest(), approveFirst()))
                    .isInstanceOf(DecisionResult.PartlyApproved.class);
        }
        try (Store asTess = Store.open(location("tess"))) {
            assertThat(runService(asTess).decide(actor(asTess), card.run(), card.digest(), approveFirst()))
                    .isInstanceOf(DecisionResult.Done.class);
        }
        assertThat(LedgerTool.executions(ledger)).containsEntry(card.run() + " only", 1L);
    }

    @Test
    void aDenialNeedsNobodyElse() throws Exception {
        Card card = startAsQuinn();
        try (Store asTess = Store.open(location("tess"))) {
            assertThat(runService(asTess).decide(actor(asTess), card.run(), card.digest(),
                    List.of(Decision.CallVerdict.deny(0, "Not now")))).isInstanceOf(DecisionResult.Done.class);
        }
    }

    private record Card(String run, String digest) {
    }

    private Card startAsQuinn() {
        try (Store asQuinn = Store.open(location("quinn"))) {
            DefaultRunService runs = runService(asQuinn);
            String run = runs.start(actor(asQuinn), LedgerTool.ONE_PAUSE, "Record it", false).runId();
            return new Card(run, runs.card(actor(asQuinn), run).orElseThrow().digest());
        }
    }

    private StoreLocation location(String login) {
        return new StoreLocation.Postgres(base + login);
    }

    private Connection raw(String login) throws SQLException {
        return DriverManager.getConnection(base + login);
    }

    private DefaultRunService runService(Store store) {
        return DefaultRunService.overStore(store, ToolRegistry.of(new LedgerTool(ledger)),
                new NetworkntSchemaValidator(),
                ScriptedChatModel.byModel(LedgerTool.scripts()), InvocationRules.none(), Clock.systemUTC(),
                IdGenerator.random(), Locale.ENGLISH);
    }

    private static Actor actor(Store store) {
        return store.users().signedIn("not-the-login");
    }

    private static List<Decision.CallVerdict> approveFirst() {
        return List.of(Decision.CallVerdict.approve(0));
    }

    private static String approval(Card card, String approvedBy) {
        return "INSERT INTO approvals (run_id, pause_number, digest, approved_by, approved_at, verdicts) VALUES ('"
                + card.run() + "', 1, '" + card.digest() + "', '" + approvedBy + "', 0,"
                + " '[{\"index\": 0, \"approved\": true}]')";
    }

    private static String decision(Card card, String decidedBy) {
        return "INSERT INTO decisions (run_id, pause_number, decided_by, decided_at, kind, digest, summary, verdicts,"
                + " event_recorded, written_at_schema) VALUES ('" + card.run() + "', 99, '" + decidedBy + "', 0,"
                + " 'APPROVAL', '" + card.digest() + "', 'by hand', '[{\"index\": 0, \"approved\": true}]', FALSE, 27)";
    }

    /** The statement fails with PostgreSQL's insufficient privilege (a missing grant, or a row policy). */
    private void refusedByPostgres(String login, String sql) {
        assertThatThrownBy(() -> {
            try (Connection connection = raw(login); PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.execute();
            }
        }).as(login + ": " + sql).isInstanceOfSatisfying(SQLException.class, refused ->
                assertThat(refused.getSQLState()).as(refused.getMessage()).isEqualTo(INSUFFICIENT_PRIVILEGE));
    }
}
