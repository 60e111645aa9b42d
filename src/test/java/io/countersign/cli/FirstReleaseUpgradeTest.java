package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store made by the first release (0.1, commit 5745275) as its team left it, opened by this build: the fixtures
 * under {@code src/test/resources/upgrade/} are written by {@code src/test/upgrade/make-fixtures.sh}, which drives
 * the old build's command line. Its people are {@code root} (the admin, the operating-system user that made it),
 * {@code maria} (operator) and {@code jonas} (supervisor); two cards wait (a file write, a typed input), maria
 * denied a web fetch, an unattended run finished, an admin disabled {@code web_fetch}.
 */
class FirstReleaseUpgradeTest {
    private static final String REFUSAL = "countersign: this store's people are still operating-system names from"
            + " Countersign 0.1; an admin runs `countersign store init --adopt-logins`\n";
    /** A server of its own: logins belong to a whole server, and the plan depends on which exist. */
    private static EmbeddedPostgres postgres;
    private static int databases;

    @TempDir
    Path folder;
    private String database;

    @BeforeAll
    static void startServer() throws IOException {
        postgres = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start();
    }

    @AfterAll
    static void stopServer() throws IOException {
        postgres.close();
    }

    /** The dump loaded into a new database; of the people, only maria has a login, as on a server shared since. */
    @BeforeEach
    void loadFirstReleaseStore() throws Exception {
        database = "first_release_" + ++databases;
        try (Connection server = postgres.getPostgresDatabase().getConnection();
             Statement statement = server.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
            // another test's adoption created these
            statement.execute("DROP ROLE IF EXISTS root");
            statement.execute("DROP ROLE IF EXISTS jonas");
            statement.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'maria') THEN"
                    + " CREATE ROLE maria LOGIN; END IF; END $$");
        }
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement()) {
            statement.execute(fixture("v0.1-postgres.sql"));
        }
    }

    @Test
    void everyoneIsToldWhyUntilTheOwnerAdoptsTheLogins() throws Exception {
        CommandProcess.Result refused = as("postgres", "inbox");

        assertThat(refused.exitCode()).isEqualTo(Cli.REFUSED);
        assertThat(refused.err()).isEqualTo(REFUSAL);
        assertThat(as("postgres", "user", "set", "maria", "--roles", "operator").err()).isEqualTo(REFUSAL);
    }

    @Test
    void storeInitShowsThePlanAndChangesNothing() throws Exception {
        as("postgres", "inbox");
        List<String> before = snapshot();

        CommandProcess.Result plan = as("postgres", "store", "init");

        assertThat(plan.exitCode()).as(plan.err()).isZero();
        JsonNode view = plan.json();
        assertThat(view.path("storeVersion").asText()).isEqualTo("11");
        assertThat(view.path("owner").asText()).isEqualTo("postgres");
        assertThat(view.path("ownerBecomesAdmin").asBoolean()).isTrue();
        assertThat(view.path("people").toString()).isEqualTo("[{\"person\":\"jonas\",\"login\":\"jonas\","
                + "\"loginExists\":false,\"roles\":[\"supervisor\"],\"createLogin\":\"CREATE ROLE \\\"jonas\\\" LOGIN\"},"
                + "{\"person\":\"maria\",\"login\":\"maria\",\"loginExists\":true,\"roles\":[\"operator\"]},"
                + "{\"person\":\"root\",\"login\":\"root\",\"loginExists\":false,"
                + "\"roles\":[\"admin\",\"operator\",\"supervisor\"],\"createLogin\":\"CREATE ROLE \\\"root\\\" LOGIN\"}]");
        assertThat(view.path("note").asText()).contains("nothing was changed");
        assertThat(view.has("statements")).isFalse();
        assertThat(snapshot()).isEqualTo(before);
        assertThat(as("postgres", "inbox").err()).isEqualTo(REFUSAL);
    }

    @Test
    void onlyTheOwnerOfTheTablesAdoptsThem() throws Exception {
        as("postgres", "inbox");
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement()) {
            statement.execute("GRANT SELECT, DELETE ON ALL TABLES IN SCHEMA public TO maria");
        }

        CommandProcess.Result refused = as("maria", "store", "init", "--adopt-logins");

        assertThat(refused.exitCode()).as(refused.err()).isEqualTo(Cli.REFUSED);
        assertThat(refused.err()).isEqualTo("countersign: only the owner of this store's tables, postgres, may adopt"
                + " its people's logins (countersign store init --adopt-logins); nothing was changed\n");
        assertThat(as("postgres", "inbox").err()).isEqualTo(REFUSAL);
    }

    @Test
    void afterTheAdoptionEveryoneKeepsTheirRolesAndWorks() throws Exception {
        Map<String, List<String>> firstRelease = columns();
        List<String> before = rows(firstRelease);

        CommandProcess.Result adopted = as("postgres", "store", "init", "--adopt-logins");

        assertThat(adopted.exitCode()).as(adopted.err()).isZero();
        assertThat(adopted.json().path("statements").toString()).contains("CREATE ROLE \\\"jonas\\\" LOGIN",
                "CREATE ROLE \\\"root\\\" LOGIN", "GRANT countersign_operator TO \\\"maria\\\"",
                "GRANT countersign_admin TO \\\"root\\\"", "GRANT countersign_admin TO \\\"postgres\\\"");
        assertThat(as("root", "users").out().replaceAll("\\s", "")).isEqualTo("[{\"name\":\"jonas\",\"roles\":"
                + "[\"supervisor\"]},{\"name\":\"maria\",\"roles\":[\"operator\"]},{\"name\":\"postgres\",\"roles\":"
                + "[\"admin\"]},{\"name\":\"root\",\"roles\":[\"admin\",\"operator\",\"supervisor\"]}]");
        // nothing the old build wrote is lost: every row of its tables is still there, as it was (but the counter
        // of changes, which every change counts up)
        firstRelease.remove("change_counters");
        assertThat(rows(firstRelease)).containsAll(before.stream().filter(row -> !row.startsWith("change_counters"))
                .toList());

        // what the old build printed of the store reads the same to its admin, with what the adoption added: the
        // owner an admin, and the two changes that say so
        PrintedFacts.assertReadTheSame("v0.1-postgres-facts.json", command -> as("root", command),
                PrintedFacts.firstRelease()
                        .addedItem("users", "{\"name\":\"postgres\",\"roles\":[\"admin\"]}")
                        .addedItem("tools changes", "{\"actor\":\"postgres\",\"setting\":\"user_roles:postgres\","
                                + "\"oldValue\":null,\"newValue\":\"admin\"}", "id", "time")
                        .addedItem("tools changes", "{\"actor\":\"postgres\",\"setting\":\"login_adoption:11\","
                                + "\"oldValue\":\"operating-system names\",\"newValue\":\"database logins\"}", "id",
                                "time"));
        try (Store opened = Store.open(new StoreLocation.Postgres(postgres.getJdbcUrl("postgres", database)))) {
            PrintedFacts.assertDeclarationsHold("v0.1-postgres-facts.json", opened);
        }

        // maria answers the file write and the typed input left waiting, once each
        Map<String, Long> decisions = countByRun("decisions");
        WaitingCards.assertEachIsAnsweredOnce(command -> as("maria", command), command -> as("root", command),
                folder.resolve("release-notes"));
        Map<String, Long> decided = countByRun("decisions");
        decided.replaceAll((run, count) -> count - decisions.getOrDefault(run, 0L));
        decided.values().removeIf(count -> count == 0);
        assertThat(decided.values()).containsExactly(1L, 1L);
        // jonas reads what was refused, and is refused what a supervisor may not do
        assertThat(as("jonas", "events").exitCode()).isZero();
        assertThat(as("jonas", "inbox").err()).isEqualTo("countersign: jonas (supervisor) may not view inbox;"
                + " that needs the role admin or operator\n");
        // and init, run again, has nothing more to adopt
        CommandProcess.Result init = as("postgres", "store", "init");
        assertThat(init.exitCode()).as(init.err()).isZero();
        assertThat(init.json().path("admin").asText()).isEqualTo("postgres");
        PrintedFacts.assertTheChainBeginsAfter("v0.1-postgres-facts.json", as("root", "audit", "verify"));
    }

    @Test
    void theHistoryReadsAsAFreshStoresDoesSoALaterBuildAcceptsIt() throws Exception {
        as("postgres", "inbox");
        String fresh = "fresh_" + ++databases;
        try (Connection server = postgres.getPostgresDatabase().getConnection();
             Statement statement = server.createStatement()) {
            statement.execute("CREATE DATABASE " + fresh);
        }
        Store.open(new StoreLocation.Postgres(postgres.getJdbcUrl("postgres", fresh))).close();

        // V25 was told this store's version, the fresh store nothing: the checksums a later build validates agree
        assertThat(checksums(database)).isEqualTo(checksums(fresh));
    }

    private List<String> checksums(String of) throws SQLException {
        List<String> checksums = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(postgres.getJdbcUrl("postgres", of));
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT version || ' ' || checksum FROM flyway_schema_history"
                     + " ORDER BY installed_rank")) {
            while (rows.next()) {
                checksums.add(rows.getString(1));
            }
        }
        return checksums;
    }

    private CommandProcess.Result as(String login, String... args) {
        return new CommandProcess(folder, postgres.getJdbcUrl(login, database)).runHere(args);
    }

    private Connection connect(String login) throws SQLException {
        return DriverManager.getConnection(postgres.getJdbcUrl(login, database));
    }

    /** Each table's columns, by table. */
    private Map<String, List<String>> columns() throws SQLException {
        Map<String, List<String>> columns = new TreeMap<>();
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT table_name, column_name FROM information_schema.columns"
                     + " WHERE table_schema = 'public' AND table_name <> 'flyway_schema_history'"
                     + " ORDER BY table_name, ordinal_position")) {
            while (rows.next()) {
                columns.computeIfAbsent(rows.getString(1), table -> new ArrayList<>()).add(rows.getString(2));
            }
        }
        return columns;
    }

    /** Every row of these tables, as the text of these columns. */
    private List<String> rows(Map<String, List<String>> columns) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement()) {
            for (Map.Entry<String, List<String>> table : columns.entrySet()) {
                try (ResultSet all = statement.executeQuery("SELECT ROW(" + String.join(", ", table.getValue())
                        + ")::text FROM public." + table.getKey())) {
                    while (all.next()) {
                        rows.add(table.getKey() + " " + all.getString(1));
                    }
                }
            }
        }
        return rows;
    }

    /** Everything store init could change: every row, who owns each table, the server's roles and memberships. */
    private List<String> snapshot() throws SQLException {
        List<String> state = rows(columns());
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT 'owner ' || tablename || ' ' || tableowner FROM"
                     + " pg_tables WHERE schemaname = 'public' UNION ALL SELECT 'role ' || rolname FROM pg_roles"
                     + " UNION ALL SELECT 'member ' || member::regrole || ' ' || roleid::regrole FROM"
                     + " pg_auth_members")) {
            while (rows.next()) {
                state.add(rows.getString(1));
            }
        }
        state.sort(null);
        return state;
    }

    /** The rows of a table by run. */
    private Map<String, Long> countByRun(String table) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT run_id, count(*) FROM public." + table
                     + " GROUP BY run_id")) {
            while (rows.next()) {
                counts.put(rows.getString(1), rows.getLong(2));
            }
        }
        return counts;
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = Objects.requireNonNull(FirstReleaseUpgradeTest.class
                .getResourceAsStream("/upgrade/" + name), name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
