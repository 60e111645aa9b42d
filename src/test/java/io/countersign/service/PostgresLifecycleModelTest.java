package io.countersign.service;

import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** The lifecycle's model-based test on a real PostgreSQL, one schema per sequence. */
@ExtendWith(EmbeddedPostgresExtension.class)
class PostgresLifecycleModelTest extends LifecycleModelSuite {
    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void usePostgres(EmbeddedPostgres server) {
        postgres = server;
    }

    @Override
    StoreLocation freshLocation() throws Exception {
        return EmbeddedPostgresExtension.freshSchema(postgres, "lifecycle");
    }
}
