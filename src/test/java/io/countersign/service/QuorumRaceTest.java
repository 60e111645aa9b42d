package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.ApprovalQuorum;
import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * Two approvers in two JVMs approve the same cards, each needing two approvals, at the same time and in the same
 * order. On every card one approval is counted and the other completes it: exactly one of the two resumes the run,
 * the card has one decision and one kept approval, and its call executes once.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class QuorumRaceTest {
    private static final int CARDS = 150;
    private static final List<String> APPROVERS = List.of("jonas", "lena");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @TempDir
    Path folder;

    @BeforeAll
    static void archiveTheChildsClasses(@TempDir Path scratch) throws Exception {
        ChildJvm.shareClassesOf(CrashingDecider.class, scratch.resolve("store.db").toString(),
                scratch.resolve("ledger.txt").toString(), scratch.resolve("decisions.txt").toString(),
                scratch.resolve("recoveries.txt").toString(), "warm-up");
    }

    @Test
    void twoProcessesOnOneSqliteFileResumeEachRunOnce() throws Exception {
        Path file = folder.resolve("store.db");
        SQLiteDataSource raw = new SQLiteDataSource();
        raw.setUrl("jdbc:sqlite:" + file);
        race(new StoreLocation.SqliteFile(file), file.toString(), raw);
    }

    @Test
    void twoProcessesOnOnePostgresDatabaseResumeEachRunOnce(EmbeddedPostgres postgres) throws Exception {
        StoreLocation location = EmbeddedPostgresExtension.freshSchema(postgres, "quorum_race");
        race(location, ((StoreLocation.Postgres) location).jdbcUrl(),
                EmbeddedPostgresExtension.rawDataSource(location));
    }

    private void race(StoreLocation location, String storeArgument, DataSource raw) throws Exception {
        Path ledger = folder.resolve("ledger.txt");
        Path cards = folder.resolve("cards.txt");
        Files.write(cards, waitingCards(location, ledger));
        ChildJvm.raceTogether(QuorumRacer.class, folder.resolve("errors.txt"), TIMEOUT, APPROVERS.stream()
                .map(approver -> List.of(storeArgument, ledger.toString(), cards.toString(),
                        folder.resolve(approver + ".txt").toString(), approver)).toList());

        Map<String, String> jonas = answers("jonas");
        Map<String, String> lena = answers("lena");
        System.out.printf("quorum race on %s: jonas completed %d cards, lena %d%n", location.describe(),
                completed(jonas), completed(lena));
        assertThat(jonas).hasSize(CARDS);
        assertThat(lena.keySet()).isEqualTo(jonas.keySet());
        assertThat(jonas).allSatisfy((run, answer) -> assertThat(List.of(answer, lena.get(run))).as(run).isIn(
                List.of("done", "partlyapproved"), List.of("partlyapproved", "done")));
        assertThat(rowsPerRun(raw, "decisions")).hasSize(CARDS).allSatisfy((run, count) ->
                assertThat(count).isEqualTo(1));
        assertThat(rowsPerRun(raw, "approvals")).hasSize(CARDS).allSatisfy((run, count) ->
                assertThat(count).isEqualTo(1));
        assertThat(LedgerTool.executions(ledger)).hasSize(CARDS).allSatisfy((call, count) ->
                assertThat(count).as(call).isEqualTo(1));
    }

    /** Starts the runs of an agent that needs two approvals; returns {@code <run> <digest>} per card. */
    private List<String> waitingCards(StoreLocation location, Path ledger) {
        Actor olga = Actor.of("olga", Role.OPERATOR);
        try (ServiceRig rig = ServiceRig.open(location, List.of(new LedgerTool(ledger)), LedgerTool.scripts())) {
            ServiceRig.operators(rig.store, "lena");
            StoredAgentConfiguration stored = rig.store.configurations().findAgent(LedgerTool.ONE_PAUSE)
                    .orElseThrow();
            rig.store.configurations().saveAgent(new StoredAgentConfiguration(stored.name(), stored.systemPrompt(),
                    stored.modelName(), stored.toolGroups(), stored.allowedTools(), stored.workspace(),
                    stored.toolCallPolicies(), stored.maxRounds(), stored.fourEyes(), stored.deadlines(),
                    new ApprovalQuorum(2, Map.of())));
            for (int i = 0; i < CARDS; i++) {
                rig.service.start(olga, LedgerTool.ONE_PAUSE, "Record the entry", false);
            }
            return rig.service.inbox(olga).stream().map(run -> run.runId() + " " + run.digest()).toList();
        }
    }

    private Map<String, String> answers(String approver) throws Exception {
        Map<String, String> answers = new HashMap<>();
        for (String line : Files.readAllLines(folder.resolve(approver + ".txt"))) {
            int space = line.indexOf(' ');
            answers.put(line.substring(0, space), line.substring(space + 1));
        }
        return answers;
    }

    private static long completed(Map<String, String> answers) {
        return answers.values().stream().filter("done"::equals).count();
    }

    private static Map<String, Long> rowsPerRun(DataSource raw, String table) throws Exception {
        Map<String, Long> counts = new HashMap<>();
        try (Connection connection = raw.getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT run_id FROM " + table)) {
            while (rows.next()) {
                counts.merge(rows.getString(1), 1L, Long::sum);
            }
        }
        return counts;
    }
}
