package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stores made by a build from the middle of the round after the first release (commit 362b033), on SQLite and on
 * PostgreSQL, written by {@code src/test/upgrade/make-fixtures.sh 362b033}: the demo's runs, a web fetch maria
 * denied, a file write and a typed input waiting, an unattended run finished, jonas a supervisor and anna an admin
 * and supervisor, {@code web_fetch} disabled, the server {@code docs} declared approval-bound and {@code search}
 * not, and a disabled server record {@code wiki} declared not approval-bound. Beside each store, what that build
 * printed of it ({@code *-facts.json}): every field it printed reads the same with this build (but for what
 * {@link PrintedFacts#middleBuild()} states), every declaration holds, both waiting cards are answered once, and the
 * audit chain verifies.
 */
class MiddleBuildUpgradeTest {
    @TempDir
    Path folder;

    @Test
    void aSqliteStoreReadsTheSameAndWorks() throws Exception {
        Path store = folder.resolve("countersign.db");
        try (InputStream fixture = resource("362b033-sqlite.db")) {
            Files.copy(fixture, store);
        }
        CommandProcess countersign = new CommandProcess(folder, store.toString());

        PrintedFacts.assertReadTheSame("362b033-sqlite-facts.json", command -> countersign.runHere(with("root",
                command)), PrintedFacts.middleBuild());
        try (Store opened = Store.open(new StoreLocation.SqliteFile(store))) {
            PrintedFacts.assertDeclarationsHold("362b033-sqlite-facts.json", opened);
        }
        WaitingCards.assertEachIsAnsweredOnce(command -> countersign.runHere(with("maria", command)),
                command -> countersign.runHere(with("root", command)), folder.resolve("release-notes"));
        PrintedFacts.assertTheChainCoversEverything("362b033-sqlite-facts.json", countersign.runHere("--as", "root",
                "audit", "verify"));
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
                statement.execute(PrintedFacts.text("362b033-postgres.sql"));
            }
            CommandProcess owner = new CommandProcess(folder, postgres.getJdbcUrl("postgres", "postgres"));
            CommandProcess maria = new CommandProcess(folder, postgres.getJdbcUrl("maria", "postgres"));

            PrintedFacts.assertReadTheSame("362b033-postgres-facts.json", owner::runHere, PrintedFacts.middleBuild());
            try (Store opened = Store.open(new StoreLocation.Postgres(postgres.getJdbcUrl("postgres", "postgres")))) {
                PrintedFacts.assertDeclarationsHold("362b033-postgres-facts.json", opened);
            }
            // the dump leaves the grants behind with the server: the owner runs store init after the upgrade
            CommandProcess.Result init = owner.runHere("store", "init");
            assertThat(init.exitCode()).as(init.err()).isZero();
            WaitingCards.assertEachIsAnsweredOnce(maria::runHere, owner::runHere, folder.resolve("release-notes"));
            PrintedFacts.assertTheChainCoversEverything("362b033-postgres-facts.json", owner.runHere("audit",
                    "verify"));
        }
    }

    private static String[] with(String user, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--as";
        all[1] = user;
        System.arraycopy(args, 0, all, 2, args.length);
        return all;
    }

    private static InputStream resource(String name) {
        return Objects.requireNonNull(MiddleBuildUpgradeTest.class.getResourceAsStream("/upgrade/" + name), name);
    }
}
