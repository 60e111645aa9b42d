package io.countersign.store;

import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.state.RunStatus;
import java.time.Instant;
import java.util.List;

/**
 * Runs whose committed decision the process that held them could not carry out, because a server its calls need
 * did not connect there. Such a run keeps its decision and stays running, without an owner or a worker: it counts
 * as left by a stopped process, so the next process that reconciles takes it over and tries again.
 */
record HandedBackRuns(Database database, StoreSession session, RunRows rows) {
    /** The condition on the row of {@code runs} (alias {@code r}) of a run {@link RunLifecycle.State#HANDED_BACK}. */
    private static final String HANDED_BACK = "r.status = :running AND r.claimed_decision IS NOT NULL"
            + " AND r.owner IS NULL AND r.worker_id IS NULL AND r.outcome_unknown IS NULL";

    /** See {@link RunStore#handBack}. */
    void handBack(RunLease lease, Instant at) {
        String runId = lease.runId();
        database.write("leave run " + runId + " to a process that can carry out its decision", ChangeKind.RUN,
                connection -> {
                    LockedRun row = LockedRun.existing(connection, database.dialect(), runId);
                    if (row.status() != RunStatus.RUNNING || !session.id().equals(row.owner())
                            || row.epoch() != lease.epoch()) {
                        throw LockedRun.refusal(session, connection, database.dialect(), lease,
                                "it cannot be left to another process");
                    }
                    // A run driven on no decision has nothing to leave to another process.
                    row.next(RunLifecycle.Event.HAND_BACK);
                    // The epoch grows, so that nothing this driver still holds can be written for the run
                    try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET owner = NULL,"
                            + " worker_id = NULL, lease_expires = NULL, updated_at = :at, epoch = epoch + 1"
                            + " WHERE id = :runId")) {
                        update.set("at", at).set("runId", runId).executeUpdate();
                    }
                    return null;
                });
    }

    /** See {@link RunStore#takeOver}. */
    boolean takeOver(String runId, Instant at) {
        // The statement's condition is the run handed back: the table must let a take-over move it from there.
        RunLifecycle.table().next(runId, RunLifecycle.State.HANDED_BACK, RunLifecycle.Event.TAKE_OVER);
        return database.writeIf("take over the decided run " + runId + " to carry out its decision here",
                ChangeKind.RUN, Boolean::booleanValue, connection -> {
                    // The epoch grows, so that whatever held the run before writes nothing more for it.
                    try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs AS r"
                            + " SET owner = :owner, updated_at = :at, epoch = r.epoch + 1 WHERE r.id = :runId AND "
                            + HANDED_BACK)) {
                        return update.set("owner", session.id()).set("at", at).set("runId", runId)
                                .set("running", RunStatus.RUNNING.code()).executeUpdate() == 1;
                    }
                });
    }

    /** See {@link RunStore#handedBack}. */
    List<StoredRun> list() {
        return database.read("list the decided runs that wait for a process to carry them out", connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, RunRows.SELECT_RUNS + " WHERE "
                    + HANDED_BACK + " ORDER BY r.updated_at, r.id")) {
                return rows.runs(select.set("running", RunStatus.RUNNING.code()));
            }
        });
    }
}
