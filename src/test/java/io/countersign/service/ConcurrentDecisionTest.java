package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.StoreLocation;
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
 * Two deciders in two JVMs approve the same 500 cards at the same time, in the same order. Each card is decided
 * exactly once, its call executes exactly once, and the decider that lost is told who won.
 *
 * <p>The loser's answer is always "already decided", never "stale" or "not waiting": whether it meets the run
 * still claimed, moved on or finished, the card it shows was decided, and a decision on a decided card (same
 * digest) is answered with that decision, before or at the claim.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class ConcurrentDecisionTest {
    private static final int CARDS = 500;
    private static final List<String> DECIDERS = List.of("ana", "ben");
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
    void twoProcessesOnOneSqliteFileDecideEachCardOnce() throws Exception {
        Path file = folder.resolve("store.db");
        SQLiteDataSource raw = new SQLiteDataSource();
        raw.setUrl("jdbc:sqlite:" + file);
        race(new StoreLocation.SqliteFile(file), file.toString(), raw);
    }

    @Test
    void twoProcessesOnOnePostgresDatabaseDecideEachCardOnce(EmbeddedPostgres postgres) throws Exception {
        StoreLocation location = EmbeddedPostgresExtension.freshSchema(postgres, "race");
        race(location, ((StoreLocation.Postgres) location).jdbcUrl(),
                EmbeddedPostgresExtension.rawDataSource(location));
    }

    private void race(StoreLocation location, String storeArgument, DataSource raw) throws Exception {
        Path ledger = folder.resolve("ledger.txt");
        Path cards = folder.resolve("cards.txt");
        Files.write(cards, waitingCards(location, ledger));
        ChildJvm.raceTogether(RacingDecider.class, folder.resolve("errors.txt"), TIMEOUT, DECIDERS.stream()
                .map(decider -> List.of(storeArgument, ledger.toString(), cards.toString(),
                        folder.resolve(decider + ".txt").toString(), decider)).toList());

        Map<String, String> ana = answers("ana");
        Map<String, String> ben = answers("ben");
        System.out.printf("race on %s: ana won %d cards, ben %d%n", location.describe(), wins(ana), wins(ben));
        assertThat(ana).hasSize(CARDS);
        assertThat(ben.keySet()).isEqualTo(ana.keySet());
        assertThat(ana).allSatisfy((run, answer) -> assertThat(List.of(answer, ben.get(run))).as(run).isIn(
                List.of("done", "already-decided ana"), List.of("already-decided ben", "done")));
        assertThat(decisionsPerRun(raw)).hasSize(CARDS).allSatisfy((run, count) -> assertThat(count).isEqualTo(1));
        assertThat(LedgerTool.executions(ledger)).hasSize(CARDS).allSatisfy((call, count) ->
                assertThat(count).as(call).isEqualTo(1));
    }

    /** Starts the runs, each waiting on one card; returns {@code <run> <digest>} per card. */
    private List<String> waitingCards(StoreLocation location, Path ledger) {
        Actor olga = Actor.of("olga", Role.OPERATOR);
        try (ServiceRig rig = ServiceRig.open(location, List.of(new LedgerTool(ledger)), LedgerTool.scripts())) {
            for (int i = 0; i < CARDS; i++) {
                rig.service.start(olga, LedgerTool.ONE_PAUSE, "Record the entry", false);
            }
            return rig.service.inbox(olga).stream().map(run -> run.runId() + " " + run.digest()).toList();
        }
    }

    /** A decider's answer for each run: "done" when it won, else what it was told. */
    private Map<String, String> answers(String decider) throws Exception {
        Map<String, String> answers = new HashMap<>();
        for (String line : Files.readAllLines(folder.resolve(decider + ".txt"))) {
            int space = line.indexOf(' ');
            answers.put(line.substring(0, space), line.substring(space + 1));
        }
        return answers;
    }

    private static long wins(Map<String, String> answers) {
        return answers.values().stream().filter("done"::equals).count();
    }

    private static Map<String, Long> decisionsPerRun(DataSource raw) throws Exception {
        Map<String, Long> counts = new HashMap<>();
        try (Connection connection = raw.getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT run_id FROM decisions")) {
            while (rows.next()) {
                counts.merge(rows.getString(1), 1L, Long::sum);
            }
        }
        return counts;
    }
}
