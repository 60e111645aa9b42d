package io.countersign.store;

import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.RunTakenOverException;
import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.state.RunStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What the run store decides by, read from a run's row locked for the rest of the transaction: a take-over, a
 * release and a settling each check it under the same lock. A driver's own writes check their lease in the
 * statement itself ({@link #DRIVEN}), and read the row only to say why one was refused.
 *
 * @param claimed whether the run carries out a claimed decision
 * @param owner   the session of the process that drives it, if any
 * @param epoch   the run's driving epoch, grown at every take-over
 */
record LockedRun(String runId, RunStatus status, String digest, int pauseNumber, boolean claimed, String owner,
                 String outcomeUnknown, String pausedState, long epoch) {
    /**
     * The condition, on the row of {@code runs} (alias {@code r}), that a lease's driver still drives it; bound by
     * {@link #bindDriven}.
     */
    static final String DRIVEN = "r.status = :drivenStatus AND r.owner = :drivenOwner AND r.epoch = :drivenEpoch";

    /**
     * Checks that the table lets {@code event} move a run that {@link #DRIVEN} holds for, in whichever state that
     * is (driven on no decision, or carrying one out), for a write that checks its lease in its own statement.
     *
     * @throws RunLifecycle.ImpossibleTransitionException when it does not; nothing changes
     */
    static void requireDriven(String runId, RunLifecycle.Event event) {
        RunLifecycle.table().next(runId, RunLifecycle.State.RUNNING, event);
        RunLifecycle.table().next(runId, RunLifecycle.State.CLAIMED, event);
    }

    /** Binds the parameters of {@link #DRIVEN} for the lease of this process's session. */
    static NamedStatement bindDriven(NamedStatement statement, StoreSession session, RunLease lease)
            throws SQLException {
        return statement.set("drivenStatus", RunStatus.RUNNING.code()).set("drivenOwner", session.id())
                .set("drivenEpoch", lease.epoch());
    }

    /** Where the run stands in its lifecycle: a running run is driven, carries out a decision, or was handed back. */
    RunLifecycle.State state() {
        return RunLifecycle.State.of(status, claimed, owner != null);
    }

    /**
     * Where {@code event} takes the run, as the lifecycle's table says: the readable check of a transition the
     * caller's statement then makes under this lock.
     *
     * @throws RunLifecycle.ImpossibleTransitionException when the table has no such transition; nothing changes
     */
    RunLifecycle.State next(RunLifecycle.Event event) {
        return RunLifecycle.table().next(runId, state(), event);
    }

    /** The run's row, locked; empty when there is no such run. */
    static Optional<LockedRun> lock(Connection connection, Dialect dialect, String runId) throws SQLException {
        try (NamedStatement select = NamedStatement.prepare(connection, "SELECT status, digest, pause_number,"
                + " claimed_decision, owner, outcome_unknown, paused_state, epoch FROM runs r WHERE id = :runId"
                + dialect.lockRowsOf("r"))) {
            try (ResultSet row = select.set("runId", runId).executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                row.getLong("claimed_decision");
                boolean claimed = !row.wasNull();
                return Optional.of(new LockedRun(runId, RunRows.status(row.getString("status"),
                        row.getString("outcome_unknown")),
                        row.getString("digest"), row.getInt("pause_number"), claimed, row.getString("owner"),
                        row.getString("outcome_unknown"), row.getString("paused_state"), row.getLong("epoch")));
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
     * Why a write under the lease was refused: the run waits, ended, or is driven by another process or under a
     * later epoch (another thread of this process took it over, or its own recovery did).
     *
     * @throws IllegalArgumentException when there is no such run
     */
    static RunTakenOverException refusal(StoreSession session, Connection connection, Dialect dialect,
                                         RunLease lease, String consequence) throws SQLException {
        LockedRun row = existing(connection, dialect, lease.runId());
        boolean ours = row.status() == RunStatus.RUNNING && session.id().equals(row.owner());
        String why = ours ? "it was taken over by another driver in this process (epoch " + row.epoch()
                + ", this driver's " + lease.epoch() + ")"
                : "it is " + row.status().code() + (row.status() == RunStatus.RUNNING
                ? ", taken over by another process that judged this one stopped" : "");
        return new RunTakenOverException("run " + lease.runId() + " is not driven by this " + (ours ? "driver"
                : "process") + " (" + why + "); " + consequence);
    }
}
