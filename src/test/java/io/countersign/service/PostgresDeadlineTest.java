package io.countersign.service;

import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** Decision deadlines on a real PostgreSQL, one schema per store. */
@ExtendWith(EmbeddedPostgresExtension.class)
class PostgresDeadlineTest extends DeadlineSuite {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void usePostgres(EmbeddedPostgres server) {
        postgres = server;
    }

    @Override
    StoreLocation freshLocation() throws Exception {
        String schema = "deadlines_" + SCHEMAS.incrementAndGet();
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        }
        return new StoreLocation.Postgres(postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=" + schema);
    }
}
