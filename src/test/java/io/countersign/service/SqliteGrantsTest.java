package io.countersign.service;

import io.countersign.store.StoreLocation;

/** Edits and standing grants on a real SQLite file. */
class SqliteGrantsTest extends GrantsSuite {
    @Override
    StoreLocation freshLocation() {
        return new StoreLocation.SqliteFile(folder.resolve("store.db"));
    }
}
