package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.Role;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * A person and the deadline race for the same overdue cards from two JVMs, in the same order: for every card exactly
 * one wins. The person's win executes the approved call once; the deadline's declines it, and the person is told it
 * was decided. {@code -Ddeadline.trials=N} sets the cards raced (a few in every build, 200 in the bench profile).
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class DeadlineRaceTest {
    private static final int TRIALS = Integer.getInteger("deadline.trials", 6);
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path folder;

    @Test
    void aPersonAndTheDeadlineNeverBothWinOnSqlite() throws Exception {
        Path file = folder.resolve("store.db");
        SQLiteDataSource raw = new SQLiteDataSource();
        raw.setUrl("jdbc:sqlite:" + file);
        race(new StoreLocation.SqliteFile(file), file.toString(), raw);
    }

    @Test
    void aPersonAndTheDeadlineNeverBothWinOnPostgres(EmbeddedPostgres postgres) throws Exception {
        StoreLocation location = EmbeddedPostgresExtension.freshSchema(postgres, "deadline_race");
        race(location, ((StoreLocation.Postgres) location).jdbcUrl(),
                EmbeddedPostgresExtension.rawDataSource(location));
    }

    private void race(StoreLocation location, String storeArgument, DataSource raw) throws Exception {
        Path ledger = folder.resolve("ledger.txt");
        Path cards = folder.resolve("cards.txt");
        List<String> waiting = waitingCards(location, ledger);
        Files.write(cards, waiting);
        overdueInCardOrder(raw, waiting);
        ChildJvm.raceTogether(DeadlineRacer.class, folder.resolve("errors.txt"), TIMEOUT, List.of("human", "deadline")
                .stream().map(role -> List.of(storeArgument, ledger.toString(), cards.toString(),
                        folder.resolve(role + ".txt").toString(), role)).toList());

        Map<String, String> human = RaceResults.answers(folder.resolve("human.txt"));
        Map<String, String> deadline = RaceResults.answers(folder.resolve("deadline.txt"));
        Map<String, Long> executions = LedgerTool.executions(ledger);
        Map<String, String> decidedBy = RaceResults.decidedBy(raw);
        long humanWins = human.values().stream().filter("done"::equals).count();
        System.out.printf("deadline race on %s: the person won %d of %d cards, the deadline %d%n",
                location.describe(), humanWins, TRIALS, TRIALS - humanWins);
        assertThat(human).hasSize(TRIALS);
        assertThat(decidedBy).hasSize(TRIALS);
        for (String card : waiting) {
            String run = card.split(" ")[0];
            boolean personWon = human.get(run).equals("done");
            boolean deadlineWon = "denied".equals(deadline.get(run));
            assertThat(personWon ^ deadlineWon).as("exactly one winner on %s: person %s, deadline %s", run,
                    human.get(run), deadline.get(run)).isTrue();
            assertThat(decidedBy.get(run)).as(run).isEqualTo(personWon ? "olga" : "deadline");
            if (deadlineWon) {
                assertThat(human.get(run)).as(run).isEqualTo("already-decided deadline");
            }
            long executed = executions.entrySet().stream().filter(e -> e.getKey().startsWith(run + " "))
                    .mapToLong(Map.Entry::getValue).sum();
            assertThat(executed).as(run).isEqualTo(personWon ? 1 : 0);
        }
    }

    /** Starts the runs, each waiting on one card with a deadline; returns {@code <run> <digest>} per card. */
    private List<String> waitingCards(StoreLocation location, Path ledger) throws Exception {
        Actor olga = Actor.of("olga", Role.OPERATOR);
        try (ServiceRig rig = ServiceRig.open(location, List.of(new LedgerTool(ledger)), LedgerTool.scripts())) {
            StoredAgentConfiguration agent = rig.store.configurations().findAgent(LedgerTool.ONE_PAUSE).orElseThrow();
            rig.store.configurations().saveAgent(new StoredAgentConfiguration(agent.name(), agent.systemPrompt(),
                    agent.modelName(), agent.toolGroups(), agent.allowedTools(), agent.workspace(),
                    agent.toolCallPolicies(), agent.maxRounds(), agent.fourEyes(),
                    DecisionDeadlines.read(Json.mapper().readTree("{\"decisionDeadline\": \"90s\"}"))));
            for (int i = 0; i < TRIALS; i++) {
                rig.service.start(olga, LedgerTool.ONE_PAUSE, "Record the entry", false);
            }
            return rig.service.inbox(olga).stream().map(run -> run.runId() + " " + run.digest()).toList();
        }
    }

    /** As if the deadlines had passed: each an hour ago, one nanosecond apart, in the card list's order. */
    private static void overdueInCardOrder(DataSource raw, List<String> cards) throws Exception {
        Instant past = Instant.now().minus(Duration.ofHours(1));
        long base = past.getEpochSecond() * 1_000_000_000L;
        try (Connection connection = raw.getConnection();
             PreparedStatement update = connection.prepareStatement("UPDATE runs SET deadline = ? WHERE id = ?")) {
            for (int i = 0; i < cards.size(); i++) {
                update.setLong(1, base + i);
                update.setString(2, cards.get(i).split(" ")[0]);
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
        }
    }
}
