package io.countersign.store;

import io.countersign.engine.run.RunStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What the run store decides by, read from a run's row locked for the rest of the transaction: a claim, a
 * take-over, a journal intent and an outcome each check it under the same lock.
 *
 * @param claimed whether the run carries out a claimed decision
 * @param owner   the session of the process that drives it, if any
 */
record LockedRun(String runId, RunStatus status, String digest, int pauseNumber, boolean claimed, String owner,
                 String outcomeUnknown, String pausedState) {

    /** The run's row, locked; empty when there is no such run. */
    static Optional<LockedRun> lock(Connection connection, Dialect dialect, String runId) throws SQLException {
        try (NamedStatement select = NamedStatement.prepare(connection, "SELECT status, digest, pause_number,"
                + " claimed_decision, owner, outcome_unknown, paused_state FROM runs r WHERE id = :runId"
                + dialect.lockRowsOf("r"))) {
            try (ResultSet row = select.set("runId", runId).executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                row.getLong("claimed_decision");
                boolean claimed = !row.wasNull();
                return Optional.of(new LockedRun(runId, RunStatus.fromCode(row.getString("status")),
                        row.getString("digest"), row.getInt("pause_number"), claimed, row.getString("owner"),
                        row.getString("outcome_unknown"), row.getString("paused_state")));
            }
        }
    }

    /**
     * The run's row, locked.
     *
     * @throws IllegalArgumentException when there is no such run
     */
    static LockedRun existing(Connection connection, Dialect dialect, String runId) throws SQLException {
        return lock(connection, dialect, runId).orElseThrow(() -> new IllegalArgumentException(
                "no run has the id \"" + runId + "\""));
    }

    /**
     * The run's locked row, when the process of the session drives it.
     *
     * @throws IllegalArgumentException when there is no such run
     * @throws IllegalStateException    when the run is not running under that process
     */
    static LockedRun drivenBy(StoreSession session, Connection connection, Dialect dialect, String runId,
                              String consequence) throws SQLException {
        LockedRun row = existing(connection, dialect, runId);
        if (row.status() != RunStatus.RUNNING || !session.id().equals(row.owner())) {
            throw new IllegalStateException("run " + runId + " is not driven by this process (it is "
                    + row.status().code() + (row.status() == RunStatus.RUNNING
                    ? ", taken over by another process that judged this one stopped" : "") + "); " + consequence);
        }
        return row;
    }
}
