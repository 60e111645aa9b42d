package io.countersign.service;

import io.countersign.store.StoreLocation;

/** Outgoing webhooks on a real SQLite file. */
class SqliteWebhookTest extends WebhookSuite {
    private int stores;

    @Override
    StoreLocation freshLocation() {
        return new StoreLocation.SqliteFile(folder.resolve("store-" + (++stores) + ".db"));
    }
}
