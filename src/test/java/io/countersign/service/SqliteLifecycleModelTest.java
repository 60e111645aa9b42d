package io.countersign.service;

import io.countersign.store.StoreLocation;

/** The lifecycle's model-based test on a real SQLite file per sequence. */
class SqliteLifecycleModelTest extends LifecycleModelSuite {
    private int stores;

    @Override
    StoreLocation freshLocation() {
        return new StoreLocation.SqliteFile(folder.resolve("store-" + (++stores) + ".db"));
    }
}
