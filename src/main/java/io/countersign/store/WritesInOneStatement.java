package io.countersign.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes that PostgreSQL makes in one statement, each a data-modifying CTE: one round trip where each write would
 * be one. The writes run in the order they were added (the statement reads each one's rows in turn), so that
 * writers keep the order they take row locks in. Each write binds its parameters from where the one before left
 * off. One write may return the columns of the one row it writes, for the caller to read in the same round trip.
 */
final class WritesInOneStatement {
    /** Binds a write's parameters from {@code first} on; returns the parameter after its last. */
    @FunctionalInterface
    interface Binder {
        int bind(PreparedStatement statement, int first) throws SQLException;
    }

    /** Reads what the statement's one row holds: the columns a write returned, by name. */
    @FunctionalInterface
    interface Reader<T> {
        T read(ResultSet row) throws SQLException;
    }

    private final List<String> writes = new ArrayList<>();
    private final List<Binder> binders = new ArrayList<>();
    /** The columns each write returns; empty for one whose rows are only counted. */
    private final List<List<String>> returned = new ArrayList<>();

    /** Adds an INSERT, UPDATE or DELETE without a RETURNING clause of its own. */
    WritesInOneStatement add(String sql, Binder binder) {
        return add(sql, List.of(), binder);
    }

    /**
     * Adds an INSERT, UPDATE or DELETE of one row whose {@code columns} (plain column names) the statement
     * returns, as {@link #execute(Connection, Reader)} reads them.
     */
    WritesInOneStatement addReturning(String sql, List<String> columns, Binder binder) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a write that returns its row names at least one column");
        }
        return add(sql, columns, binder);
    }

    private WritesInOneStatement add(String sql, List<String> columns, Binder binder) {
        writes.add(sql);
        binders.add(binder);
        returned.add(columns);
        return this;
    }

    /** Runs the writes added, in the caller's transaction. */
    void execute(Connection connection) throws SQLException {
        if (!writes.isEmpty()) {
            execute(connection, row -> null);
        }
    }

    /**
     * Runs the writes added, in the caller's transaction, and reads the columns the writes returned; a column of a
     * write that wrote no row reads as NULL.
     */
    <T> T execute(Connection connection, Reader<T> reader) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("WITH " + ctes(null) + " SELECT "
                + inTurn())) {
            bind(statement, 1);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return reader.read(row);
            }
        }
    }

    boolean isEmpty() {
        return writes.isEmpty();
    }

    /**
     * The writes as the CTEs {@code w0}, {@code w1}, … of a caller's statement, which reads {@link #inTurn} after
     * its own CTEs. With a {@code guard}, the name of one of the caller's CTEs, each writes only when that CTE has a
     * row (and so after it): an INSERT selects its values only then, an UPDATE adds the condition to its WHERE. The
     * writes' parameters follow each other, {@code ?} where the caller's are named; see {@link #bind}.
     */
    String ctes(String guard) {
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < writes.size(); i++) {
            List<String> columns = returned.get(i);
            sql.append(i == 0 ? "" : ", ").append("w").append(i).append(" AS (")
                    .append(guard == null ? writes.get(i) : guarded(writes.get(i), guard))
                    .append(" RETURNING ").append(columns.isEmpty() ? "1" : String.join(", ", columns)).append(')');
        }
        return sql.toString();
    }

    /**
     * What the caller's statement selects to run the writes in the order they were added: the count of each one's
     * rows, or the columns it returns, named as they are.
     */
    String inTurn() {
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < writes.size(); i++) {
            List<String> columns = returned.get(i);
            sql.append(i == 0 ? "" : ", ");
            if (columns.isEmpty()) {
                sql.append("(SELECT count(*) FROM w").append(i).append(')');
            }
            for (int c = 0; c < columns.size(); c++) {
                // one scalar read per column: the write runs once, at its first, still in its turn
                sql.append(c == 0 ? "" : ", ").append("(SELECT ").append(columns.get(c)).append(" FROM w")
                        .append(i).append(") AS ").append(columns.get(c));
            }
        }
        return sql.toString();
    }

    /** Binds the writes' parameters from {@code first} on; returns the parameter after the last. */
    int bind(PreparedStatement statement, int first) throws SQLException {
        int parameter = first;
        for (Binder binder : binders) {
            parameter = binder.bind(statement, parameter);
        }
        return parameter;
    }

    /** The write, made only when the CTE {@code guard} has a row. */
    private static String guarded(String write, String guard) {
        String when = "EXISTS (SELECT FROM " + guard + ")";
        if (write.startsWith("UPDATE ")) {
            int where = write.indexOf(" WHERE ");
            if (where < 0) {
                throw new IllegalArgumentException("a guarded UPDATE has a WHERE: " + write);
            }
            return write.substring(0, where) + " WHERE " + when + " AND (" + write.substring(where + 7) + ")";
        }
        int values = write.indexOf(" VALUES ");
        if (!write.startsWith("INSERT ") || values < 0) {
            throw new IllegalArgumentException("a guarded write is an UPDATE or an INSERT of VALUES: " + write);
        }
        int conflict = write.indexOf(" ON CONFLICT ", values);
        int end = conflict < 0 ? write.length() : conflict;
        return write.substring(0, values) + " SELECT * FROM (" + write.substring(values + 1, end) + ") AS v WHERE "
                + when + write.substring(end);
    }
}
