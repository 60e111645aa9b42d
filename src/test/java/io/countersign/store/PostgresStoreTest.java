package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store suite on a real PostgreSQL (one schema per test), plus what can only go wrong over a network. */
@ExtendWith(EmbeddedPostgresExtension.class)
class PostgresStoreTest extends StoreSuite {
    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void usePostgres(EmbeddedPostgres server) {
        postgres = server;
    }

    @Override
    StoreLocation freshLocation() throws Exception {
        return EmbeddedPostgresExtension.freshSchema(postgres, "store");
    }

    @Override
    StoreLocation migratedLocation() throws Exception {
        return EmbeddedPostgresExtension.migratedDatabase(postgres);
    }

    @Override
    void discard(StoreLocation migrated) throws Exception {
        EmbeddedPostgresExtension.drop(postgres, migrated);
    }

    @Override
    DataSource rawDataSource(StoreLocation location) {
        return EmbeddedPostgresExtension.rawDataSource(location);
    }

    @Override
    Dialect dialect() {
        return Dialect.POSTGRESQL;
    }

    @Test
    void listenerStillHearsChangesAfterItsConnectionIsCut() throws Exception {
        try (Store other = open()) {
            List<ChangeKind> heard = new CopyOnWriteArrayList<>();
            other.changes().subscribe(heard::add);
            try (Connection admin = postgres.getPostgresDatabase().getConnection();
                 Statement statement = admin.createStatement()) {
                statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        + " WHERE query = 'LISTEN " + ChangeFeed.CHANNEL + "'");
            }

            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(ChangeKind.RUN));
            heard.clear();
            store.settings().setToolEnabled("web_fetch", false, ADMIN);

            await().atMost(Duration.ofSeconds(1)).until(() -> heard.contains(ChangeKind.SETTINGS));
        }
    }

    @Test
    void unreachableServerIsReportedInOneSentence() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String url = "jdbc:postgresql://127.0.0.1:" + closedPort + "/countersign";

        assertThatThrownBy(() -> Store.open(new StoreLocation.Postgres(url + "?user=ana"),
                StoreOptions.defaults().withBusyTimeout(Duration.ofSeconds(1))))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("The PostgreSQL store at " + url + " cannot be reached; check that the server is running"
                        + " and that the host and port are right.");
    }

    @Test
    void missingDatabaseIsNamedAsSuch() {
        String url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/no_such_database";

        assertThatThrownBy(() -> Store.open(new StoreLocation.Postgres(url + "?user=postgres")))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("The PostgreSQL database named in " + url + " does not exist; create it or fix the URL.");
    }

    @Test
    void aLoginWithoutCreateRightsIsToldSoWithTheServersReason() throws Exception {
        try (Connection admin = postgres.getPostgresDatabase().getConnection();
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE ROLE reader LOGIN");
            statement.execute("CREATE SCHEMA locked");
            statement.execute("GRANT USAGE ON SCHEMA locked TO reader");
        }
        String url = postgres.getJdbcUrl("reader", "postgres").replaceFirst("\\?.*", "");

        assertThatThrownBy(() -> Store.open(new StoreLocation.Postgres(url + "?user=reader&currentSchema=locked")))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("The PostgreSQL login for " + url + " may not create or change the store's"
                        + " tables (ERROR: permission denied for schema locked")
                .hasMessageEndingWith("); grant it CREATE on the store's schema, or have the schema's owner open the"
                        + " store once to create them.");
    }

    @Test
    void aServerThatAsksForAPasswordNobodyGaveIsToldSo() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> askForAPassword(server));
            peer.setDaemon(true);
            peer.start();
            String url = "jdbc:postgresql://127.0.0.1:" + server.getLocalPort() + "/countersign";

            assertThatThrownBy(() -> Store.open(new StoreLocation.Postgres(url + "?user=ana&sslmode=disable"),
                    StoreOptions.defaults().withBusyTimeout(Duration.ofSeconds(1))))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessage("The PostgreSQL store at " + url + " asks for a password, but none was found in"
                            + " ~/.pgpass or the file PGPASSFILE names; add it there, or point at it with"
                            + " password=env:NAME or password=file:PATH in the URL.");
        }
    }

    /** Answers each login as a server with password authentication does: AuthenticationCleartextPassword. */
    private static void askForAPassword(ServerSocket server) {
        while (!server.isClosed()) {
            try (Socket client = server.accept()) {
                DataInputStream in = new DataInputStream(client.getInputStream());
                int length = in.readInt();
                in.readFully(new byte[length - 4]);
                DataOutputStream out = new DataOutputStream(client.getOutputStream());
                out.writeByte('R');
                out.writeInt(8);
                out.writeInt(3);
                out.flush();
                client.getInputStream().read();
            } catch (IOException e) {
                return;
            }
        }
    }
}
