package io.countersign.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Statements with named parameters, over an in-memory SQLite database. */
class NamedStatementTest {
    private Connection connection;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:sqlite::memory:");
        connection.createStatement().execute("CREATE TABLE runs (id TEXT, status TEXT, queued_at BIGINT)");
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    @Test
    void eachNameBecomesAPlaceAndANameUsedTwiceTakesBoth() {
        Map<String, List<Integer>> places = new LinkedHashMap<>();

        String sql = NamedStatement.positional("UPDATE runs SET status = :status WHERE id = :runId OR parent = :runId",
                places);

        assertThat(sql).isEqualTo("UPDATE runs SET status = ? WHERE id = ? OR parent = ?");
        assertThat(places).containsExactly(Map.entry("status", List.of(1)), Map.entry("runId", List.of(2, 3)));
    }

    @Test
    void colonsInLiteralsAndCastsAreLeftAlone() {
        Map<String, List<Integer>> places = new LinkedHashMap<>();

        String sql = NamedStatement.positional("SELECT ':not', x::text FROM t WHERE y = :y", places);

        assertThat(sql).isEqualTo("SELECT ':not', x::text FROM t WHERE y = ?");
        assertThat(places).containsOnlyKeys("y");
    }

    @Test
    void valuesBoundByNameReachTheirColumnsAndAMissingTimeIsNull() throws SQLException {
        Instant at = Instant.parse("2026-03-01T00:00:00Z");
        try (NamedStatement insert = NamedStatement.prepare(connection,
                "INSERT INTO runs (queued_at, status, id) VALUES (:queuedAt, :status, :runId)")) {
            insert.set("runId", "r-1").set("status", "queued").set("queuedAt", at).executeUpdate();
        }
        try (NamedStatement insert = NamedStatement.prepare(connection,
                "INSERT INTO runs (queued_at, status, id) VALUES (:queuedAt, :status, :runId)")) {
            insert.set("runId", "r-2").set("status", "running").set("queuedAt", (Instant) null).executeUpdate();
        }

        try (NamedStatement select = NamedStatement.prepare(connection,
                "SELECT id, queued_at FROM runs WHERE status IN (:first, :second) ORDER BY id")) {
            ResultSet rows = select.set("first", "queued").set("second", "running").executeQuery();
            assertThat(rows.next()).isTrue();
            assertThat(rows.getLong("queued_at")).isEqualTo(Nanos.of(at));
            assertThat(rows.next()).isTrue();
            rows.getLong("queued_at");
            assertThat(rows.wasNull()).isTrue();
        }
    }

    @Test
    void aStatementWithAParameterLeftUnboundDoesNotRun() throws SQLException {
        try (NamedStatement update = NamedStatement.prepare(connection,
                "UPDATE runs SET status = :status WHERE id = :runId")) {
            update.set("status", "failed");

            assertThatThrownBy(update::executeUpdate).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("runId");
        }
    }

    @Test
    void bindingANameTheStatementDoesNotHaveIsRefused() throws SQLException {
        try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET status = :status")) {
            assertThatThrownBy(() -> update.set("state", "failed")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(":state");
        }
    }

    @Test
    void theParametersOfWritesInTheSqlAreBoundInTurnAmongTheNamedOnes() throws SQLException {
        // only the writes' binder matters here: the statement holds their two ? parameters as they rendered them
        WritesInOneStatement writes = new WritesInOneStatement().add("INSERT INTO runs (status, queued_at)"
                + " VALUES (?, ?)", (insert, first) -> {
                    insert.setString(first, "queued");
                    insert.setLong(first + 1, 7L);
                    return first + 2;
                });
        try (NamedStatement insert = NamedStatement.prepare(connection,
                "INSERT INTO runs (id, status, queued_at) VALUES (:runId, ?, ?), (:otherId, 'running', :at)")) {
            insert.set("runId", "r-1").set("otherId", "r-2").set("at", 9L);
            assertThatThrownBy(insert::executeUpdate).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("?");

            insert.bindWrites(writes).executeUpdate();
        }

        try (NamedStatement select = NamedStatement.prepare(connection, "SELECT id, status, queued_at FROM runs"
                + " ORDER BY id")) {
            ResultSet rows = select.executeQuery();
            assertThat(rows.next()).isTrue();
            assertThat(List.of(rows.getString(1), rows.getString(2), rows.getString(3)))
                    .containsExactly("r-1", "queued", "7");
            assertThat(rows.next()).isTrue();
            assertThat(List.of(rows.getString(1), rows.getString(2), rows.getString(3)))
                    .containsExactly("r-2", "running", "9");
        }
    }
}
