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
 * off.
 */
final class WritesInOneStatement {
    /** Binds a write's parameters from {@code first} on; returns the parameter after its last. */
    @FunctionalInterface
    interface Binder {
        int bind(PreparedStatement statement, int first) throws SQLException;
    }

    private final List<String> writes = new ArrayList<>();
    private final List<Binder> binders = new ArrayList<>();

    /** Adds an INSERT, UPDATE or DELETE without a RETURNING clause of its own. */
    WritesInOneStatement add(String sql, Binder binder) {
        writes.add(sql);
        binders.add(binder);
        return this;
    }

    /** Runs the writes added, in the caller's transaction. */
    void execute(Connection connection) throws SQLException {
        if (writes.isEmpty()) {
            return;
        }
        StringBuilder sql = new StringBuilder("WITH ");
        StringBuilder inTurn = new StringBuilder(" SELECT ");
        for (int i = 0; i < writes.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("w").append(i).append(" AS (").append(writes.get(i))
                    .append(" RETURNING 1)");
            inTurn.append(i == 0 ? "" : ", ").append("(SELECT count(*) FROM w").append(i).append(')');
        }
        try (PreparedStatement statement = connection.prepareStatement(sql.append(inTurn).toString())) {
            int parameter = 1;
            for (Binder binder : binders) {
                parameter = binder.bind(statement, parameter);
            }
            statement.executeQuery().close();
        }
    }
}
