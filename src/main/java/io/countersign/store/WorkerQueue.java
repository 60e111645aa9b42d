package io.countersign.store;

import io.countersign.engine.port.RunQueue;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.RunStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The queue of runs for workers: a queued run is claimed by exactly one worker of any process, held under a lease
 * the worker renews, and recovered when the lease lapses.
 */
record WorkerQueue(Database database, StoreSession session, RunRows rows, RunRecords runs) {
    /**
     * Takes the next queued run, decisions before new runs, each oldest first (V28); the literal status lets both
     * databases take the queue's partial index. The worker's process becomes the run's owner and the epoch grows: the
     * journal and outcome writes are this worker thread's alone, whoever drove the run before. Its two {@code %s}:
     * how the queue's read passes over rows another claim holds, and what the claim returns.
     */
    private static final String CLAIM_NEXT = "UPDATE runs SET status = :running, worker_id = :workerId,"
            + " lease_expires = :leaseExpires, updated_at = :at, queued_at = NULL, owner = :owner,"
            + " epoch = epoch + 1 WHERE id = (SELECT id FROM runs WHERE status = '" + RunStatus.QUEUED.code() + "'"
            + " ORDER BY (paused_state IS NULL), queued_at, id LIMIT 1%s) AND status = :queued RETURNING %s";
    /**
     * PostgreSQL's claim, returning the claimed run as {@link RunRows#SELECT_RUNS} reads it, or one row of nulls with
     * whether queued runs were passed over as held: the outer query reads the statement's snapshot, in which the
     * claimed run is still queued, so only a claim that took nothing asks. One statement, its own transaction, so
     * that a claim is one round trip with its commit, and one that finds nothing (a worker woken with the others by
     * a change) one too.
     *
     * <p>The snapshot may also predate the run's decision: the lock taken passing over held rows follows the run to
     * its newest version, which a worker may have carried through a pause and a client queued again with a new
     * decision since the statement began (seen once in the team-scale benchmark, 2 workers on 2 cores).
     * {@code decision_unseen} tells, and the run is read again then.
     */
    private static final String CLAIM_NEXT_IN_ONE_STATEMENT = "WITH claimed AS ("
            + String.format(CLAIM_NEXT, Dialect.POSTGRESQL.skipLocked(), "*") + "), found AS ("
            + RunRows.selectRunsFrom("claimed") + ") SELECT found.*, NOT EXISTS (SELECT 1 FROM claimed)"
            + " AND EXISTS (SELECT 1 FROM runs WHERE status = '" + RunStatus.QUEUED.code() + "') AS held,"
            + " EXISTS (SELECT 1 FROM claimed c WHERE c.claimed_decision IS NOT NULL AND NOT EXISTS"
            + " (SELECT 1 FROM decisions d WHERE d.id = c.claimed_decision)) AS decision_unseen"
            + " FROM (SELECT 1) AS one LEFT JOIN found ON true";
    /** SQLite's claim, returning the claimed run's id; its writer's lock is the only one, so nothing is held. */
    private static final String CLAIM_NEXT_ID = String.format(CLAIM_NEXT, Dialect.SQLITE.skipLocked(), "id");

    /** The run as {@link RunRows#SELECT_RUNS} reads it, once its claimed decision can be read too. */
    private static final String SELECT_WITH_ITS_DECISION = RunRows.SELECT_RUNS + " WHERE r.id = :runId AND"
            + " (r.claimed_decision IS NULL OR EXISTS (SELECT 1 FROM decisions c WHERE c.id = r.claimed_decision))";

    /** Hands the next queued run to a worker, decisions first; see {@link RunStore#claimNext}. */
    RunQueue.NextRun claimNext(String workerId, Instant leaseExpires, Instant at) {
        // No change signal: a claim only moves a run between two states nobody watches, and an empty claim
        // must not wake every other worker.
        String what = "claim a queued run";
        if (database.dialect() == Dialect.POSTGRESQL) {
            return database.writeStatement(what, connection -> claimInOneStatement(connection, workerId,
                    leaseExpires, at));
        }
        return database.write(what, connection -> {
            String runId;
            try (NamedStatement claim = NamedStatement.prepare(connection, CLAIM_NEXT_ID)) {
                try (ResultSet claimed = bindClaim(claim, workerId, leaseExpires, at).executeQuery()) {
                    if (!claimed.next()) {
                        return RunQueue.NextRun.EMPTY;
                    }
                    runId = claimed.getString("id");
                }
            }
            return rows.find(connection, runId).<RunQueue.NextRun>map(RunQueue.NextRun.Taken::new)
                    .orElse(RunQueue.NextRun.EMPTY);
        });
    }

    private RunQueue.NextRun claimInOneStatement(Connection connection, String workerId, Instant leaseExpires,
                                                 Instant at) throws SQLException {
        String runId;
        try (NamedStatement claim = NamedStatement.prepare(connection, CLAIM_NEXT_IN_ONE_STATEMENT);
             ResultSet row = bindClaim(claim, workerId, leaseExpires, at).executeQuery()) {
            row.next();
            runId = row.getString("id");
            if (runId == null) {
                return row.getBoolean("held") ? RunQueue.NextRun.HELD : RunQueue.NextRun.EMPTY;
            }
            if (!row.getBoolean("decision_unseen")) {
                return new RunQueue.NextRun.Taken(rows.run(row, RunRows.decision(row, "last_")));
            }
        }
        // A new statement's snapshot holds the decision, committed with the run's version the claim took.
        try (NamedStatement again = NamedStatement.prepare(connection, SELECT_WITH_ITS_DECISION)) {
            return new RunQueue.NextRun.Taken(rows.runs(again.set("runId", runId)).stream().findFirst()
                    .orElseThrow(() -> new StoreException("run " + runId + " was taken from the queue without its"
                            + " decision, which the store cannot read; it goes back to the queue when this"
                            + " worker's lease lapses")));
        }
    }

    private NamedStatement bindClaim(NamedStatement claim, String workerId, Instant leaseExpires, Instant at)
            throws SQLException {
        return claim.set("running", RunStatus.RUNNING.code()).set("workerId", workerId)
                .set("leaseExpires", leaseExpires).set("at", at).set("owner", session.id())
                .set("queued", RunStatus.QUEUED.code());
    }

    /** Extends a worker's lease; false when the worker no longer holds the run. */
    boolean renewLease(String runId, String workerId, Instant leaseExpires) {
        return database.write("renew the lease of worker " + workerId + " on run " + runId, connection -> {
            try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs"
                    + " SET lease_expires = :leaseExpires"
                    + " WHERE id = :runId AND worker_id = :workerId AND status = :running")) {
                return update.set("leaseExpires", leaseExpires).set("runId", runId).set("workerId", workerId)
                        .set("running", RunStatus.RUNNING.code()).executeUpdate() == 1;
            }
        });
    }

    /** Recovers the runs whose worker stopped; see {@link RunStore#recoverAbandoned}. */
    List<StoredRun> recoverAbandoned(Instant at) {
        List<String> lapsed = database.read("list the runs whose worker stopped", connection -> {
            List<String> ids = new ArrayList<>();
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT id FROM runs"
                    + " WHERE status = :running AND lease_expires < :at ORDER BY id")) {
                try (ResultSet found = select.set("running", RunStatus.RUNNING.code()).set("at", at)
                        .executeQuery()) {
                    while (found.next()) {
                        ids.add(found.getString("id"));
                    }
                }
            }
            return ids;
        });
        List<StoredRun> recovered = new ArrayList<>();
        for (String runId : lapsed) {
            if (recoverOne(runId, at)) {
                runs.find(runId).ifPresent(recovered::add);
            }
        }
        return recovered;
    }

    private boolean recoverOne(String runId, Instant at) {
        return database.write("recover run " + runId + " from its stopped worker", ChangeKind.QUEUE, connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT id FROM runs WHERE id = :runId"
                    + " AND status = :running AND lease_expires < :at" + database.dialect().skipLocked())) {
                try (ResultSet row = select.set("runId", runId).set("running", RunStatus.RUNNING.code())
                        .set("at", at).executeQuery()) {
                    if (!row.next()) {
                        return false;
                    }
                }
            }
            List<String> unknown = CallJournal.unknownOutcomes(connection, runId);
            if (unknown.isEmpty()) {
                try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET status = :queued,"
                        + " queued_at = :at, updated_at = :at, worker_id = NULL, lease_expires = NULL, owner = NULL,"
                        + " epoch = epoch + 1 WHERE id = :runId")) {
                    update.set("queued", RunStatus.QUEUED.code()).set("at", at).set("runId", runId).executeUpdate();
                }
            } else {
                try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs"
                        + " SET outcome_unknown = :calls, updated_at = :at, worker_id = NULL, lease_expires = NULL,"
                        + " owner = NULL, epoch = epoch + 1 WHERE id = :runId")) {
                    update.set("calls", RunRows.callsToJson(unknown)).set("at", at).set("runId", runId)
                            .executeUpdate();
                }
            }
            return true;
        });
    }
}
