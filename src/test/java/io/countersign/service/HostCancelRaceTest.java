package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.Store;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * MCP hosts cancel their waiting calls while a person approves the same cards, from two JVMs in the same order: for
 * every card exactly one of the two wins. The host's win is a {@code call_withdrawn} event, the person is told the
 * host cancelled, and nothing runs; the person's win is their decision, and its call runs once if it started before
 * its host cancelled, else never: the gateway does not start a call whose host has given it up. {@code -Dcancel.trials=N} sets the cards raced (a
 * few in every build, 200 in the bench profile).
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class HostCancelRaceTest {
    private static final int TRIALS = Integer.getInteger("cancel.trials", 6);
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path folder;

    @Test
    void aPersonAndTheHostsCancellationNeverBothWinOnSqlite() throws Exception {
        Path file = folder.resolve("store.db");
        SQLiteDataSource raw = new SQLiteDataSource();
        raw.setUrl("jdbc:sqlite:" + file);
        race(new StoreLocation.SqliteFile(file), file.toString(), raw);
    }

    @Test
    void aPersonAndTheHostsCancellationNeverBothWinOnPostgres(EmbeddedPostgres postgres)
            throws Exception {
        StoreLocation location = EmbeddedPostgresExtension.freshSchema(postgres, "cancel_race");
        race(location, ((StoreLocation.Postgres) location).jdbcUrl(),
                EmbeddedPostgresExtension.rawDataSource(location));
    }

    private void race(StoreLocation location, String storeArgument, DataSource raw) throws Exception {
        try (Store store = Store.open(location)) {
            HostCancelRacer.prepare(store);
        }
        Path ledger = folder.resolve("ledger.txt");
        Path cards = folder.resolve("cards.txt");
        Path person = folder.resolve("person.txt");
        Path hosts = folder.resolve("hosts.txt");
        // the gateway first: its "ready" comes once the card list is written
        ChildJvm.raceTogether(HostCancelRacer.class, folder.resolve("errors.txt"), TIMEOUT, List.of(
                List.of(storeArgument, ledger.toString(), cards.toString(), hosts.toString(), "gateway",
                        Integer.toString(TRIALS)),
                List.of(storeArgument, ledger.toString(), cards.toString(), person.toString(), "person")));

        Map<String, String> decided = RaceResults.answers(person);
        Map<String, String> heard = RaceResults.answers(hosts);
        Map<String, String> decidedBy = RaceResults.decidedBy(raw);
        Map<String, Long> withdrawals = withdrawals(raw);
        Map<String, Long> executions = new HashMap<>();
        LedgerTool.executions(ledger).forEach((line, count) -> executions.merge(line.split(" ")[0], count,
                Long::sum));
        long hostWins = decidedBy.values().stream().filter("host"::equals).count();
        System.out.printf("cancellation race on %s: the host won %d of %d cards; of the person's %d, %d ran before"
                        + " the host cancelled and %d were stopped before they started%n", location.describe(),
                hostWins, TRIALS, TRIALS - hostWins, executions.size(),
                heard.values().stream().filter("not-started"::equals).count());
        assertThat(decided).hasSize(TRIALS);
        assertThat(heard).hasSize(TRIALS);
        assertThat(decidedBy).hasSize(TRIALS);
        for (String card : Files.readAllLines(cards)) {
            String run = card.split(" ")[0];
            boolean personWon = decided.get(run).equals("done");
            assertThat(decidedBy.get(run)).as(run).isEqualTo(personWon ? "olga" : "host");
            assertThat(withdrawals.getOrDefault(run, 0L)).as("call_withdrawn events of %s", run)
                    .isEqualTo(personWon ? 0 : 1);
            if (personWon) {
                // approved first: it ran once if it started before the host cancelled, else never
                assertThat(heard.get(run)).as(run).isIn("ran", "not-started");
                assertThat(executions.getOrDefault(run, 0L)).as(run).isEqualTo(heard.get(run).equals("ran") ? 1 : 0);
            } else {
                assertThat(decided.get(run)).as(run).isEqualTo("already-decided host");
                assertThat(heard.get(run)).as(run).isEqualTo("withdrawn");
                assertThat(executions).as(run).doesNotContainKey(run);
            }
        }
    }

    private static Map<String, Long> withdrawals(DataSource raw) throws Exception {
        Map<String, Long> counted = new HashMap<>();
        try (Connection connection = raw.getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT run_id, COUNT(*) FROM governance_events"
                     + " WHERE event_type = 'call_withdrawn' GROUP BY run_id")) {
            while (rows.next()) {
                counted.put(rows.getString(1), rows.getLong(2));
            }
        }
        return counted;
    }
}
