package io.countersign.service;

import io.countersign.store.StoreLocation;

/** Two-person approval on a real SQLite file. */
class SqliteQuorumTest extends QuorumSuite {
    private int stores;

    @Override
    StoreLocation freshLocation() {
        return new StoreLocation.SqliteFile(folder.resolve("store-" + (++stores) + ".db"));
    }
}
