package io.countersign.store;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** The decision statistics on a SQLite file. */
class SqliteDecisionStatsTest extends DecisionStatsSuite {
    private static final AtomicInteger FILES = new AtomicInteger();

    @TempDir
    Path folder;

    @Override
    StoreLocation freshLocation() {
        return new StoreLocation.SqliteFile(folder.resolve("stats-" + FILES.incrementAndGet() + ".db"));
    }

    @Override
    DataSource rawDataSource(StoreLocation location) {
        SQLiteDataSource dataSource = new SQLiteDataSource();
        dataSource.setUrl("jdbc:sqlite:" + ((StoreLocation.SqliteFile) location).file());
        return dataSource;
    }

    @Override
    Dialect dialect() {
        return Dialect.SQLITE;
    }
}
