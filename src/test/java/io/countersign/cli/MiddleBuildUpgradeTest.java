package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stores made by a build from the middle of the round after the first release (commit 362b033), on SQLite and on
 * PostgreSQL, written by {@code src/test/upgrade/make-fixtures.sh 362b033}: the demo's runs, a web fetch maria
 * denied, a file write and a typed input waiting, an unattended run finished, jonas a supervisor and anna an admin
 * and supervisor, {@code web_fetch} disabled, the server {@code docs} declared approval-bound and {@code search}
 * not. Beside each store, what that build printed of it ({@code *-facts.json}): every field it printed reads the
 * same with this build, the waiting card is decided once, and the audit chain verifies.
 */
class MiddleBuildUpgradeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path folder;

    @Test
    void aSqliteStoreReadsTheSameAndWorks() throws Exception {
        Path store = folder.resolve("countersign.db");
        try (InputStream fixture = resource("362b033-sqlite.db")) {
            Files.copy(fixture, store);
        }
        CommandProcess countersign = new CommandProcess(folder, store.toString());

        assertEveryFactReadsTheSame("362b033-sqlite-facts.json", command -> countersign.runHere(with("root",
                command)));
        assertTheWaitingCardIsDecidedOnce(countersign, new String[] {"--as", "maria"}, new String[] {"--as", "root"});
        assertTheChainVerifies(countersign.runHere("--as", "root", "audit", "verify"));
    }

    @Test
    void aPostgresStoreReadsTheSameAndWorks() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start()) {
            try (Connection connection = postgres.getPostgresDatabase().getConnection();
                 Statement statement = connection.createStatement()) {
                // roles belong to the server, which keeps them: the logins, and the group roles store init made
                for (String login : List.of("maria", "jonas", "anna")) {
                    statement.execute("CREATE ROLE " + login + " LOGIN");
                }
                for (String group : List.of("operator", "supervisor", "admin", "worker", "owner")) {
                    statement.execute("CREATE ROLE countersign_" + group + " NOLOGIN");
                }
                statement.execute(text("362b033-postgres.sql"));
            }
            CommandProcess owner = new CommandProcess(folder, postgres.getJdbcUrl("postgres", "postgres"));
            CommandProcess maria = new CommandProcess(folder, postgres.getJdbcUrl("maria", "postgres"));

            assertEveryFactReadsTheSame("362b033-postgres-facts.json", owner::runHere);
            // the dump leaves the grants behind with the server: the owner runs store init after the upgrade
            CommandProcess.Result init = owner.runHere("store", "init");
            assertThat(init.exitCode()).as(init.err()).isZero();
            assertTheWaitingCardIsDecidedOnce(maria, owner);
            assertTheChainVerifies(owner.runHere("audit", "verify"));
        }
    }

    private void assertEveryFactReadsTheSame(String facts, Function<String[], CommandProcess.Result> countersign)
            throws Exception {
        JsonNode printed = JSON.readTree(text(facts));
        for (Map.Entry<String, JsonNode> fact : printed.properties()) {
            CommandProcess.Result now = countersign.apply(fact.getKey().split(" "));
            assertThat(now.exitCode()).as(fact.getKey() + ": " + now.err()).isZero();
            if (fact.getKey().contains("csv")) {
                assertCsvHolds(fact.getKey(), fact.getValue().asText(), now.out());
            } else {
                assertHolds(fact.getKey(), JSON.readTree(fact.getValue().asText()), JSON.readTree(now.out()));
            }
        }
    }

    /** Every field the old build printed is there with the same value; fields added since are not compared. */
    private static void assertHolds(String where, JsonNode old, JsonNode now) {
        if (old.isObject()) {
            assertThat(now.isObject()).as(where).isTrue();
            old.properties().forEach(field -> assertHolds(where + "." + field.getKey(), field.getValue(),
                    now.path(field.getKey())));
        } else if (old.isArray()) {
            assertThat(now.size()).as(where).isEqualTo(old.size());
            for (int i = 0; i < old.size(); i++) {
                assertHolds(where + "[" + i + "]", old.get(i), now.get(i));
            }
        } else {
            assertThat(now).as(where).isEqualTo(old);
        }
    }

    /** The same events in the same order, each column the old build printed with the same value. */
    private static void assertCsvHolds(String where, String old, String now) {
        List<Map<String, String>> before = csv(old);
        List<Map<String, String>> after = csv(now);
        assertThat(after).as(where).hasSameSizeAs(before);
        for (int i = 0; i < before.size(); i++) {
            Map<String, String> row = after.get(i);
            before.get(i).forEach((column, value) -> assertThat(row.get(column)).as(where + " " + column)
                    .isEqualTo(value));
        }
    }

    private static List<Map<String, String>> csv(String text) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                record.add(field.toString());
                field.setLength(0);
            } else if (c == '\n') {
                record.add(field.toString());
                field.setLength(0);
                records.add(record);
                record = new ArrayList<>();
            } else if (c != '\r') {
                field.append(c);
            }
        }
        List<Map<String, String>> rows = new ArrayList<>();
        for (List<String> values : records.subList(1, records.size())) {
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < values.size(); i++) {
                row.put(records.get(0).get(i), values.get(i));
            }
            rows.add(row);
        }
        return rows;
    }

    private static void assertTheWaitingCardIsDecidedOnce(CommandProcess operator, CommandProcess other) {
        assertTheWaitingCardIsDecidedOnce(operator, new String[0], other, new String[0]);
    }

    private static void assertTheWaitingCardIsDecidedOnce(CommandProcess countersign, String[] operator,
                                                          String[] other) {
        assertTheWaitingCardIsDecidedOnce(countersign, operator, countersign, other);
    }

    private static void assertTheWaitingCardIsDecidedOnce(CommandProcess first, String[] firstAs, CommandProcess second,
                                                          String[] secondAs) {
        JsonNode inbox = first.runHere(concat(firstAs, "inbox")).json();
        assertThat(StreamSupport.stream(inbox.spliterator(), false).map(run -> run.path("agent").asText()))
                .containsExactlyInAnyOrder("release-notes-bot", "intake-form");
        JsonNode card = StreamSupport.stream(inbox.spliterator(), false)
                .filter(run -> run.path("agent").asText().equals("release-notes-bot")).findFirst().orElseThrow();
        String[] decide = {"decide", card.path("runId").asText(), "--digest", card.path("digest").asText(),
                "--deny-all", "--reason", "Not this week"};

        CommandProcess.Result decided = first.runHere(concat(firstAs, decide));
        CommandProcess.Result again = second.runHere(concat(secondAs, decide));

        assertThat(decided.exitCode()).as(decided.err()).isZero();
        assertThat(again.exitCode()).isEqualTo(Cli.REFUSED);
        assertThat(again.err()).contains("already decided", "maria");
        assertThat(first.runHere(concat(firstAs, "inbox")).json()).hasSize(1);
    }

    private static void assertTheChainVerifies(CommandProcess.Result verified) {
        assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
        JsonNode report = verified.json();
        // the middle build chained every event and decision it wrote: the chain covers them all, from its start
        assertThat(report.path("verified").asBoolean()).as(report.toString()).isTrue();
        assertThat(report.path("rowsChecked").asLong()).as(report.toString()).isPositive();
        assertThat(report.path("begins").asText()).as(report.toString()).isNotEmpty();
        assertThat(report.toString()).as(report.toString()).doesNotContain("inserted", "removed", "not covered");
    }

    private static String[] with(String user, String... args) {
        return concat(new String[] {"--as", user}, args);
    }

    private static String[] concat(String[] first, String... then) {
        String[] all = new String[first.length + then.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(then, 0, all, first.length, then.length);
        return all;
    }

    private static InputStream resource(String name) {
        return Objects.requireNonNull(MiddleBuildUpgradeTest.class.getResourceAsStream("/upgrade/" + name), name);
    }

    private static String text(String name) throws Exception {
        try (InputStream in = resource(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
