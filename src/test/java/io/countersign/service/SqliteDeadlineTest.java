package io.countersign.service;

import io.countersign.store.StoreLocation;

/** Decision deadlines on a real SQLite file. */
class SqliteDeadlineTest extends DeadlineSuite {
    private int stores;

    @Override
    StoreLocation freshLocation() {
        return new StoreLocation.SqliteFile(folder.resolve("store-" + (++stores) + ".db"));
    }
}
