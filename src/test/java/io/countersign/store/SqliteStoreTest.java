package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/** The store suite on a SQLite file, plus what can only go wrong with a file. */
class SqliteStoreTest extends StoreSuite {
    private static final AtomicInteger FILES = new AtomicInteger();

    @TempDir
    Path folder;

    @Override
    StoreLocation freshLocation() {
        return new StoreLocation.SqliteFile(folder.resolve("store-" + FILES.incrementAndGet() + ".db"));
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

    private Path file() {
        return ((StoreLocation.SqliteFile) location).file();
    }

    private StoreOptions quick() {
        return StoreOptions.defaults().withBusyTimeout(Duration.ofMillis(300));
    }

    @Test
    void storeFileIsInWriteAheadLogMode() throws Exception {
        try (Connection connection = rawDataSource(location).getConnection();
             Statement statement = connection.createStatement()) {
            assertThat(statement.executeQuery("PRAGMA journal_mode").getString(1)).isEqualTo("wal");
        }
    }

    @Test
    void closedStoreCheckpointsItsLogIntoTheFileAndRemovesIt() {
        store.users().ensureUser("ana");
        store.close();

        assertThat(file().resolveSibling(file().getFileName() + "-wal")).doesNotExist();
        try (Store again = Store.open(location, quick())) {
            assertThat(again.users().find("ana")).isPresent();
        }
    }

    @Test
    void storeClosedBeforeTheProcessExitsLeavesItsSyncedLogBehind() throws Exception {
        store.users().ensureUser("ana");
        store.closeBeforeExit();

        assertThat(file().resolveSibling(file().getFileName() + "-wal")).isNotEmptyFile();
        try (Connection connection = rawDataSource(location).getConnection();
             Statement statement = connection.createStatement()) {
            assertThat(statement.executeQuery("SELECT count(*) FROM users WHERE name = 'ana'").getInt(1))
                    .isEqualTo(1);
        }
    }

    @Test
    void fileThatIsNotADatabaseIsRefusedAndLeftByteIdentical() throws Exception {
        Path garbage = Files.createDirectory(folder.resolve("notes")).resolve("notes.db");
        byte[] content = "These are my notes, not a database. ".repeat(200).getBytes(StandardCharsets.UTF_8);
        Files.write(garbage, content);

        assertThatThrownBy(() -> Store.open(new StoreLocation.SqliteFile(garbage), quick()))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("The file " + garbage + " is not a Countersign store: it is not a SQLite database.");
        assertThat(Files.readAllBytes(garbage)).isEqualTo(content);
        try (Stream<Path> besideIt = Files.list(garbage.getParent())) {
            assertThat(besideIt).containsExactly(garbage);
        }
    }

    @Test
    void lockedFileIsRefusedAfterTheBusyTimeoutAndLeftByteIdentical() throws Exception {
        store.close();
        byte[] before = Files.readAllBytes(file());
        SQLiteConfig exclusive = new SQLiteConfig();
        exclusive.setLockingMode(SQLiteConfig.LockingMode.EXCLUSIVE);
        SQLiteDataSource holder = new SQLiteDataSource(exclusive);
        holder.setUrl("jdbc:sqlite:" + file());
        try (Connection other = holder.getConnection(); Statement statement = other.createStatement()) {
            // In exclusive locking mode a WAL database is locked from the first read until the connection closes.
            statement.executeQuery("SELECT counter FROM change_counters").close();

            assertThatThrownBy(() -> Store.open(location, quick()))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessage("The store file " + file() + " is locked by another program, which did not release"
                            + " it within 300 ms; close that program or try again.");
            assertThat(Files.readAllBytes(file())).isEqualTo(before);
        }
    }

    @Test
    void newerStoreFileIsLeftByteIdentical() throws Exception {
        store.close();
        migrateWithANewerBuild();
        byte[] before = Files.readAllBytes(file());

        assertThatThrownBy(this::open).isInstanceOf(NewerStoreException.class);
        assertThat(Files.readAllBytes(file())).isEqualTo(before);
    }

    @Test
    void folderInPlaceOfTheFileIsRefused() throws Exception {
        Path inPlace = Files.createDirectory(folder.resolve("a-folder.db"));

        assertThatThrownBy(() -> Store.open(new StoreLocation.SqliteFile(inPlace), quick()))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("The store path " + inPlace + " is a folder, not a file; give the path of a store file.");
    }

    @Test
    void fileInAMissingFolderIsRefusedWithoutCreatingIt() {
        Path missing = folder.resolve("no-such-folder");

        assertThatThrownBy(() -> Store.open(new StoreLocation.SqliteFile(missing.resolve("store.db")), quick()))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("The folder " + missing + " of the store file does not exist; create it or choose"
                        + " another path.");
        assertThat(missing).doesNotExist();
    }
}
