package io.countersign.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What a check of the store's file found. On SQLite {@code PRAGMA integrity_check} (every page, every index
 * entry) or, at open, {@code PRAGMA quick_check} (every page, not the index contents); on PostgreSQL the check
 * does not apply: the server keeps its own files, and its checks (amcheck) belong to its administrator.
 *
 * @param applies  false on PostgreSQL
 * @param problems one line per problem SQLite found, at most {@value #MAX_PROBLEMS}; empty when whole
 */
public record StoreCheck(String store, boolean applies, List<String> problems) {
    static final int MAX_PROBLEMS = 100;

    public StoreCheck {
        problems = List.copyOf(problems);
    }

    public boolean whole() {
        return problems.isEmpty();
    }

    /** Runs the pragma on the connection; {@code quick} for the check at open. */
    static List<String> problems(Connection connection, boolean quick) throws SQLException {
        List<String> problems = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet found = statement.executeQuery("PRAGMA " + (quick ? "quick_check" : "integrity_check") + "("
                     + MAX_PROBLEMS + ")")) {
            while (found.next()) {
                String line = found.getString(1);
                if (!"ok".equals(line)) {
                    problems.add(line);
                }
            }
        } catch (SQLException e) {
            if (!OpenFailures.isCorrupt(e)) {
                throw e;
            }
            // damage bad enough to stop the check is its finding too
            problems.add("the check itself stopped: " + e.getMessage().lines().findFirst().orElse("SQLITE_CORRUPT"));
        }
        return problems;
    }
}
