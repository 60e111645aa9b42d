package io.countersign.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Gives tests a real PostgreSQL, started once per JVM (about two seconds) and stopped when the test run ends.
 * Declare a parameter of type {@link EmbeddedPostgres}.
 */
public final class EmbeddedPostgresExtension implements ParameterResolver {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static final String MIGRATED_SCHEMA = "store";
    /**
     * Each server's migrated template, named after this JVM too: the suite's two JVMs start servers of their own,
     * and a full build once found a template of the one shared name already on a server this JVM had not migrated.
     */
    private static final Map<EmbeddedPostgres, String> TEMPLATES = new IdentityHashMap<>();

    /** A store location in a new, empty schema of the server, named after the prefix: one per store a test opens. */
    public static StoreLocation freshSchema(EmbeddedPostgres postgres, String prefix) throws SQLException {
        String schema = prefix + "_" + SCHEMAS.incrementAndGet();
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        }
        return new StoreLocation.Postgres(postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=" + schema);
    }

    /**
     * A store location in a new database already at the newest schema version: a copy of one database migrated
     * once per server, far quicker than migrating each. {@link #drop} it when its test is over.
     */
    public static StoreLocation migratedDatabase(EmbeddedPostgres postgres) throws SQLException {
        String template = migratedTemplate(postgres);
        String database = "store_db_" + SCHEMAS.incrementAndGet();
        executeOnServer(postgres, "CREATE DATABASE " + database + " TEMPLATE " + template);
        return location(postgres, database);
    }

    /** Drops a database {@link #migratedDatabase} made, whoever is still connected to it. */
    public static void drop(EmbeddedPostgres postgres, StoreLocation location) throws SQLException {
        String url = ((StoreLocation.Postgres) location).jdbcUrl();
        String database = url.substring(url.lastIndexOf('/') + 1, url.indexOf('?'));
        executeOnServer(postgres, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }

    private static synchronized String migratedTemplate(EmbeddedPostgres postgres) throws SQLException {
        String template = TEMPLATES.get(postgres);
        if (template == null) {
            template = "countersign_migrated_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
            executeOnServer(postgres, "CREATE DATABASE " + template);
            StoreLocation location = location(postgres, template);
            try (Connection connection = rawDataSource(location).getConnection();
                 Statement statement = connection.createStatement()) {
                statement.execute("CREATE SCHEMA " + MIGRATED_SCHEMA);
            }
            Flyway.configure().dataSource(rawDataSource(location)).locations(Migrations.LOCATION)
                    .placeholders(Dialect.POSTGRESQL.migrationPlaceholders()).loggers("slf4j").load().migrate();
            TEMPLATES.put(postgres, template);
        }
        return template;
    }

    private static StoreLocation location(EmbeddedPostgres postgres, String database) {
        return new StoreLocation.Postgres(postgres.getJdbcUrl("postgres", database) + "&currentSchema="
                + MIGRATED_SCHEMA);
    }

    private static void executeOnServer(EmbeddedPostgres postgres, String sql) throws SQLException {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** A plain data source on the store's own URL, for tests that change rows behind the store's back. */
    public static DataSource rawDataSource(StoreLocation location) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(((StoreLocation.Postgres) location).jdbcUrl());
        return dataSource;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == EmbeddedPostgres.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(Server.class, key -> Server.start(), Server.class).postgres();
    }

    /** The running server; the root store closes it after the last test. */
    private record Server(EmbeddedPostgres postgres) implements AutoCloseable {
        static Server start() {
            try {
                // A throwaway server: durability costs time and proves nothing here.
                return new Server(EmbeddedPostgres.builder()
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off")
                        .start());
            } catch (IOException e) {
                throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
            }
        }

        @Override
        public void close() throws IOException {
            postgres.close();
        }
    }
}
