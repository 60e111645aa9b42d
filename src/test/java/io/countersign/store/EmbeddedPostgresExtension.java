package io.countersign.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
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

    /** A store location in a new, empty schema of the server, named after the prefix: one per store a test opens. */
    public static StoreLocation freshSchema(EmbeddedPostgres postgres, String prefix) throws SQLException {
        String schema = prefix + "_" + SCHEMAS.incrementAndGet();
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        }
        return new StoreLocation.Postgres(postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=" + schema);
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
