package io.countersign.service;

import io.countersign.store.StoreLocation;

/** Deciding many cards at once on a real SQLite file. */
class SqliteBatchTest extends BatchSuite {
    private int stores;

    @Override
    StoreLocation freshLocation() {
        return new StoreLocation.SqliteFile(folder.resolve("store-" + (++stores) + ".db"));
    }
}
