package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.store.EmbeddedPostgresExtension;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a PostgreSQL store the person is the database login the server authenticated, with a password that never
 * passes through a command line, a log or the store: read from a pgpass file, an environment variable or a file.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class PostgresLoginTest {
    private static final String LOGIN = "lena_login";
    private static final String PASSWORD = "right-horse-battery";
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    @TempDir
    Path folder;

    /** A login that must give its password: the embedded server trusts every other login. */
    @BeforeAll
    static void aLoginWithAPassword(EmbeddedPostgres postgres) throws Exception {
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE ROLE " + LOGIN + " LOGIN PASSWORD '" + PASSWORD + "'");
            Path hba;
            try (ResultSet row = statement.executeQuery("SHOW hba_file")) {
                row.next();
                hba = Path.of(row.getString(1));
            }
            Files.writeString(hba, "host all " + LOGIN + " 127.0.0.1/32 scram-sha-256\n"
                    + "host all " + LOGIN + " ::1/128 scram-sha-256\n" + Files.readString(hba));
            statement.execute("SELECT pg_reload_conf()");
        }
    }

    @Test
    void theLoginActsWhateverTheOperatingSystemUserIsWithThePasswordFromPgpass(EmbeddedPostgres postgres)
            throws Exception {
        CommandProcess countersign = new CommandProcess(folder, store(postgres));
        Path pgpass = pgpass(PASSWORD);

        CommandProcess.Result users = countersign.start(Map.of("PGPASSFILE", pgpass.toString()), "users").await();

        assertThat(users.exitCode()).as(users.err()).isZero();
        assertThat(users.json()).singleElement().satisfies(user -> {
            assertThat(user.path("name").asText()).isEqualTo(LOGIN).isNotEqualTo(System.getProperty("user.name"));
            assertThat(user.path("roles").toString()).contains("admin");
        });
        assertThat(users.out() + users.err()).doesNotContain(PASSWORD);
    }

    @Test
    void aWrongPasswordIsOneSentenceAndExitFour(EmbeddedPostgres postgres) throws Exception {
        CommandProcess countersign = new CommandProcess(folder, store(postgres));

        CommandProcess.Result refused = countersign.start(Map.of("PGPASSFILE", pgpass("wrong-guess").toString()),
                "inbox").await();

        assertThat(refused.exitCode()).as(refused.err()).isEqualTo(Cli.UNAVAILABLE);
        assertThat(refused.err().lines().toList()).singleElement().isEqualTo("countersign: The PostgreSQL store at"
                + " jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres refused the login \"" + LOGIN
                + "\": the password from ~/.pgpass or the file PGPASSFILE names is wrong.");
        assertThat(refused.out()).isEmpty();
        assertThat(refused.err()).doesNotContain("wrong-guess");
    }

    @Test
    void thePasswordMayComeFromAnEnvironmentVariableOrAFile(EmbeddedPostgres postgres) throws Exception {
        String store = store(postgres);
        CommandProcess fromVariable = new CommandProcess(folder, store + "&password=env:LENA_PASSWORD");
        CommandProcess.Result viaVariable = fromVariable.start(Map.of("LENA_PASSWORD", PASSWORD), "users").await();
        assertThat(viaVariable.exitCode()).as(viaVariable.err()).isZero();
        assertThat(viaVariable.json().get(0).path("name").asText()).isEqualTo(LOGIN);

        Path file = Files.writeString(folder.resolve("password.txt"), PASSWORD + "\n");
        CommandProcess.Result viaFile = new CommandProcess(folder, store + "&password=file:" + file).run("users");
        assertThat(viaFile.exitCode()).as(viaFile.err()).isZero();

        CommandProcess.Result unset = fromVariable.run("users");
        assertThat(unset.exitCode()).isEqualTo(Cli.UNAVAILABLE);
        assertThat(unset.err()).isEqualTo("countersign: The store URL takes its password from the environment"
                + " variable LENA_PASSWORD, which is not set.\n");
    }

    @Test
    void aPasswordOnTheCommandLineIsRefusedBeforeAnythingConnects(EmbeddedPostgres postgres) throws Exception {
        CommandProcess.Result refused = new CommandProcess(folder, store(postgres) + "&password=" + PASSWORD)
                .run("inbox");

        assertThat(refused.exitCode()).isEqualTo(Cli.BAD_USAGE);
        assertThat(refused.err()).isEqualTo("countersign: The store URL holds a password, which would show in the"
                + " process list and in logs; put it in ~/.pgpass (or the file PGPASSFILE names), or point at it with"
                + " password=env:NAME or password=file:PATH.\n");
    }

    @Test
    void actingAsAnotherUserDoesNotExistOnPostgres(EmbeddedPostgres postgres) throws Exception {
        CommandProcess countersign = new CommandProcess(folder, store(postgres));

        CommandProcess.Result refused = countersign.runAs("ada", "inbox");

        assertThat(refused.exitCode()).isEqualTo(Cli.BAD_USAGE);
        assertThat(refused.err()).isEqualTo("countersign: --as cannot be used with a PostgreSQL store: there the"
                + " person is the database login the server authenticated; connect as them with user=NAME in the"
                + " store URL\n");
    }

    /** A schema of the login's own, so that each test starts on a new store. */
    private static String store(EmbeddedPostgres postgres) throws Exception {
        String schema = "login_" + SCHEMAS.incrementAndGet();
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema + " AUTHORIZATION " + LOGIN);
        }
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres?user=" + LOGIN + "&currentSchema="
                + schema;
    }

    private Path pgpass(String password) throws Exception {
        Path file = Files.writeString(folder.resolve("pgpass"), "*:*:*:" + LOGIN + ":" + password + "\n");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
