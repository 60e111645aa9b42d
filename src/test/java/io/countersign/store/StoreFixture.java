package io.countersign.store;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A store on a fresh, empty database per test, its clock fixed at {@link #NOW}; subclasses say which database. */
abstract class StoreFixture {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    StoreLocation location;
    Store store;
    private StoreLocation opened;

    /** A new, empty database, used by one test only. */
    abstract StoreLocation freshLocation() throws Exception;

    /** A new database at the newest version for the store each test opens: by default an empty one it migrates. */
    StoreLocation migratedLocation() throws Exception {
        return freshLocation();
    }

    /** The test is over and its stores closed: a database {@link #migratedLocation} made for it alone can go. */
    void discard(StoreLocation migrated) throws Exception {
    }

    /** A plain data source on the location, bypassing the store, to look at or tamper with the schema. */
    abstract DataSource rawDataSource(StoreLocation location);

    abstract Dialect dialect();

    @BeforeEach
    void openStore() throws Exception {
        opened = migratedLocation();
        location = opened;
        store = open();
    }

    @AfterEach
    void closeStore() throws Exception {
        store.close();
        discard(opened);
    }

    Store open() {
        return Store.open(location, StoreOptions.defaults().withClock(Clock.fixed(NOW, ZoneOffset.UTC)));
    }
}
