package io.countersign.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.ds.PGSimpleDataSource;

/** The audit chain's tampering tests on a real PostgreSQL, one schema per test. */
@ExtendWith(EmbeddedPostgresExtension.class)
class PostgresAuditChainTest extends AuditChainSuite {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void usePostgres(EmbeddedPostgres server) {
        postgres = server;
    }

    @Override
    StoreLocation freshLocation() throws Exception {
        String schema = "audit_" + SCHEMAS.incrementAndGet();
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        }
        return new StoreLocation.Postgres(postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=" + schema);
    }

    @Override
    DataSource rawDataSource(StoreLocation location) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(((StoreLocation.Postgres) location).jdbcUrl());
        return dataSource;
    }

    @Override
    Dialect dialect() {
        return Dialect.POSTGRESQL;
    }
}
