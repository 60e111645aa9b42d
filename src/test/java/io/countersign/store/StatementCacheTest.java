package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/** Prepared statements kept per SQLite connection, over a file in WAL mode as the store opens it. */
class StatementCacheTest {
    private static final String SELECT = "SELECT id FROM runs WHERE id >= ? ORDER BY id";

    @TempDir
    Path folder;

    private DataSource plain;
    private Connection connection;

    @BeforeEach
    void open() throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        SQLiteDataSource source = new SQLiteDataSource(config);
        source.setUrl("jdbc:sqlite:" + folder.resolve("cache.db"));
        plain = source;
        connection = StatementCache.caching(source).getConnection();
        try (Statement ddl = connection.createStatement()) {
            ddl.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, status TEXT)");
            ddl.execute("INSERT INTO runs VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        }
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    @Test
    void theSameSqlIsServedByTheStatementCompiledBeforeWhileTwoInUseGetTwo() throws SQLException {
        PreparedStatement first = compiled(SELECT);
        PreparedStatement second = compiled(SELECT);
        assertThat(second).isSameAs(first);
        try (PreparedStatement outer = connection.prepareStatement(SELECT);
             PreparedStatement inner = connection.prepareStatement(SELECT)) {
            assertThat(inner.unwrap(PreparedStatement.class)).isNotSameAs(outer.unwrap(PreparedStatement.class));
        }
        try (PreparedStatement keyed = connection.prepareStatement(SELECT, new String[] {"id"})) {
            assertThat(keyed.unwrap(PreparedStatement.class)).isNotSameAs(first);
        }
    }

    @Test
    void aKeptStatementRunsWithTheNewParametersAndAClosedLoanRefusesWork() throws SQLException {
        PreparedStatement loan = connection.prepareStatement(SELECT);
        loan.setInt(1, 3);
        try (ResultSet rows = loan.executeQuery()) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(3);
        }
        loan.close();
        assertThat(loan.isClosed()).isTrue();
        assertThat(loan).isEqualTo(loan).hasSameHashCodeAs(loan);
        assertThat(loan.toString()).startsWith("a loan of");
        assertThatThrownBy(loan::executeQuery).isInstanceOf(SQLException.class).hasMessageContaining("closed");
        try (PreparedStatement again = connection.prepareStatement(SELECT)) {
            again.setInt(1, 2);
            try (ResultSet rows = again.executeQuery()) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(2);
            }
        }
    }

    @Test
    void aQueryLeftWithRowsUnreadHoldsNoReadOnceItsStatementIsClosed() throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(SELECT)) {
            select.setInt(1, 1);
            ResultSet rows = select.executeQuery();
            assertThat(rows.next()).isTrue();
        }
        try (Connection other = plain.getConnection(); Statement write = other.createStatement()) {
            write.execute("INSERT INTO runs VALUES (4, 'd')");
            try (ResultSet checkpoint = write.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                checkpoint.next();
                assertThat(checkpoint.getInt(1)).as("busy: a reader held the log").isZero();
            }
        }
    }

    @Test
    void aStatementThatFailedIsClosedNotKept() throws SQLException {
        String insert = "INSERT INTO runs (id, status) VALUES (?, 'x')";
        PreparedStatement failed;
        try (PreparedStatement duplicate = connection.prepareStatement(insert)) {
            failed = duplicate.unwrap(PreparedStatement.class);
            duplicate.setInt(1, 1);
            assertThatThrownBy(duplicate::executeUpdate).isInstanceOf(SQLException.class)
                    .hasMessageContaining("UNIQUE");
        }
        assertThat(failed.isClosed()).isTrue();
        try (PreparedStatement fresh = connection.prepareStatement(insert)) {
            fresh.setInt(1, 5);
            assertThat(fresh.executeUpdate()).isEqualTo(1);
        }
    }

    @Test
    void closingTheConnectionClosesTheKeptStatements() throws SQLException {
        PreparedStatement kept = compiled(SELECT);
        connection.close();
        assertThat(kept.isClosed()).isTrue();
    }

    /** Runs the SQL once through a loan and returns the compiled statement behind it. */
    private PreparedStatement compiled(String sql) throws SQLException {
        try (PreparedStatement loan = connection.prepareStatement(sql)) {
            loan.setInt(1, 1);
            loan.executeQuery().close();
            return loan.unwrap(PreparedStatement.class);
        }
    }
}
