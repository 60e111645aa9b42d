package io.countersign.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** The audit chain's tampering tests on a real PostgreSQL, one schema per test. */
@ExtendWith(EmbeddedPostgresExtension.class)
class PostgresAuditChainTest extends AuditChainSuite {
    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void usePostgres(EmbeddedPostgres server) {
        postgres = server;
    }

    @Override
    StoreLocation freshLocation() throws Exception {
        return EmbeddedPostgresExtension.freshSchema(postgres, "audit");
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
}
