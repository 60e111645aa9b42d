package io.countersign.service;

import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** Deciding many cards at once on a real PostgreSQL, one schema per store. */
@ExtendWith(EmbeddedPostgresExtension.class)
class PostgresBatchTest extends BatchSuite {
    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void usePostgres(EmbeddedPostgres server) {
        postgres = server;
    }

    @Override
    StoreLocation freshLocation() throws Exception {
        return EmbeddedPostgresExtension.freshSchema(postgres, "batch");
    }
}
