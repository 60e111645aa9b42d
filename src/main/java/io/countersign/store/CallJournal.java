package io.countersign.store;

import io.countersign.engine.invocation.ToolInvocationObservation;
import io.countersign.engine.port.ExecutionJournal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The execution journal in {@code call_intents}: intent before, outcome after, each in its own committed
 * transaction, so that a crash leaves the truth behind. An intent is written only while this process drives the
 * run: the check and the insert share the run's lock with a take-over, so no call starts on a run another process
 * has taken.
 */
record CallJournal(Database database, StoreSession session) implements ExecutionJournal {
    @Override
    public void beforeExecute(String runId, String callId, String toolName) {
        database.write("record that call " + callId + " of run " + runId + " starts", connection -> {
            LockedRun.drivenBy(session, connection, database.dialect(), runId,
                    "call " + callId + " was not started");
            try (NamedStatement insert = NamedStatement.prepare(connection, "INSERT INTO call_intents (run_id,"
                    + " call_id, tool_name, started_at) VALUES (:runId, :callId, :toolName, :startedAt)")) {
                insert.set("runId", runId).set("callId", callId).set("toolName", toolName)
                        .set("startedAt", database.clock().instant()).executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void afterExecute(String runId, String callId, ToolInvocationObservation.Outcome outcome) {
        database.write("record the outcome of call " + callId + " of run " + runId, connection -> {
            try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE call_intents"
                    + " SET outcome = :outcome, finished_at = :finishedAt"
                    + " WHERE run_id = :runId AND call_id = :callId AND outcome IS NULL")) {
                update.set("outcome", outcome.code()).set("finishedAt", database.clock().instant())
                        .set("runId", runId).set("callId", callId).executeUpdate();
            }
            return null;
        });
    }

    /** Forgets the run's journal, in the caller's transaction: its stretch ended, or it waits again. */
    static void clear(Connection connection, String runId) throws SQLException {
        try (NamedStatement delete = NamedStatement.prepare(connection,
                "DELETE FROM call_intents WHERE run_id = :runId")) {
            delete.set("runId", runId).executeUpdate();
        }
    }

    /**
     * The calls whose outcome is unknown after their process stopped: those begun and never finished, else all
     * of them (their results were lost with the process). Empty when the stretch started no call.
     */
    static List<String> unknownOutcomes(Connection connection, String runId) throws SQLException {
        List<String> open = new ArrayList<>();
        List<String> all = new ArrayList<>();
        try (NamedStatement select = NamedStatement.prepare(connection, "SELECT call_id, outcome FROM call_intents"
                + " WHERE run_id = :runId ORDER BY id")) {
            try (ResultSet rows = select.set("runId", runId).executeQuery()) {
                while (rows.next()) {
                    all.add(rows.getString("call_id"));
                    if (rows.getString("outcome") == null) {
                        open.add(rows.getString("call_id"));
                    }
                }
            }
        }
        return open.isEmpty() ? all : open;
    }
}
