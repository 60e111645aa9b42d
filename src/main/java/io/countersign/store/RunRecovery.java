package io.countersign.store;

import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.state.RunStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * After a process stopped: its running runs taken over as their journal says, and a person's settling of a run
 * whose outcome is unknown. Reconciliation looks only at runs whose owner stopped.
 */
record RunRecovery(Database database, StoreSession session, RunRecords runs) {
    /** The orphans of stopped processes, taken over; see {@link RunStore#reconcile}. */
    List<StoredRun> reconcile(Instant at) {
        // A gateway run is carried on by its own gateway or by nobody: those whose gateway stopped end here, but a
        // card of an MCP task, which the next gateway of its profile takes over.
        new StoppedGatewayRuns(database, session).endAll(at, runs);
        // Runs first, then the registrations: every owner read here registered before it wrote its run, so an
        // owner without a registration has stopped. Runs started after this read are not looked at.
        List<Orphan> running = database.read("list the runs left running", connection -> {
            List<Orphan> found = new ArrayList<>();
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT id, owner FROM runs"
                    + " WHERE status = :running AND outcome_unknown IS NULL AND worker_id IS NULL"
                    + " AND gateway_session IS NULL ORDER BY updated_at, id")) {
                try (ResultSet rows = select.set("running", RunStatus.RUNNING.code()).executeQuery()) {
                    while (rows.next()) {
                        found.add(new Orphan(rows.getString("id"), rows.getString("owner")));
                    }
                }
            }
            return found;
        });
        Set<String> live = session.live();
        List<StoredRun> toResume = new ArrayList<>();
        for (Orphan orphan : running) {
            if (orphan.owner() == null || !live.contains(orphan.owner())) {
                if (takeOver(orphan, at) == TakeOver.RESUME) {
                    runs.find(orphan.runId()).ifPresent(toResume::add);
                }
            }
        }
        return toResume;
    }

    private record Orphan(String runId, String owner) {
    }

    private enum TakeOver {
        /** Another process took it first, or it moved on. */
        UNTOUCHED,
        /** Failed as interrupted, or flagged: nothing to carry on. */
        SETTLED,
        /** Now this process's, to carry out its decision again. */
        RESUME
    }

    private TakeOver takeOver(Orphan orphan, Instant at) {
        String runId = orphan.runId();
        return database.writeIf("take over run " + runId + " from a stopped process", ChangeKind.RUN,
                result -> result != TakeOver.UNTOUCHED, connection -> {
                    Optional<LockedRun> current = LockedRun.lock(connection, database.dialect(), runId);
                    if (current.isEmpty() || current.get().status() != RunStatus.RUNNING
                            || current.get().outcomeUnknown() != null
                            || !Objects.equals(current.get().owner(), orphan.owner())) {
                        return TakeOver.UNTOUCHED;
                    }
                    LockedRun row = current.get();
                    List<String> started = CallJournal.unknownOutcomes(connection, runId);
                    if (!row.claimed()) {
                        row.next(RunLifecycle.Event.INTERRUPTION);
                        failInterrupted(connection, runId, started, at);
                        return TakeOver.SETTLED;
                    }
                    if (!started.isEmpty()) {
                        row.next(RunLifecycle.Event.OUTCOME_UNKNOWN);
                        flagOutcomeUnknown(connection, runId, started, at);
                        return TakeOver.SETTLED;
                    }
                    row.next(RunLifecycle.Event.RECOVERY);
                    // A take-over: the epoch grows, so that whatever drove the run before writes nothing more for it.
                    try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET owner = :owner,"
                            + " updated_at = :at, epoch = epoch + 1 WHERE id = :runId")) {
                        update.set("owner", session.id()).set("at", at).set("runId", runId).executeUpdate();
                    }
                    return TakeOver.RESUME;
                });
    }

    static void failInterrupted(Connection connection, String runId, List<String> started, Instant at)
            throws SQLException {
        String message = "the process running this run stopped before the run paused or finished"
                + (started.isEmpty() ? "" : "; the outcome of " + String.join(", ", started) + " is unknown");
        try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET status = :failed,"
                + " updated_at = :at, failure_reason = 'interrupted', failure_message = :message, owner = NULL,"
                + " epoch = epoch + 1 WHERE id = :runId")) {
            update.set("failed", RunStatus.FAILED.code()).set("at", at).set("message", message).set("runId", runId)
                    .executeUpdate();
        }
        CallJournal.clear(connection, runId);
    }

    static void flagOutcomeUnknown(Connection connection, String runId, List<String> calls, Instant at)
            throws SQLException {
        try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET outcome_unknown = :calls,"
                + " updated_at = :at, owner = NULL, epoch = epoch + 1 WHERE id = :runId")) {
            update.set("calls", RunRows.callsToJson(calls)).set("at", at).set("runId", runId).executeUpdate();
        }
    }

    private static boolean waitsOnDamagedState(LockedRun row) {
        if (!row.status().waiting() || row.pausedState() == null) {
            return false;
        }
        try {
            // a card changed behind Countersign's back is damaged as much as one that does not decode
            return !PausedStateCodec.fromJson(row.pausedState()).digest().equals(row.digest());
        } catch (RuntimeException damaged) {
            return true;
        }
    }

    /** Ends a waiting run whose paused state does not decode, dropping the state: nothing of it can run. */
    private static void failDamaged(Connection connection, String runId, String settledBy, Instant at)
            throws SQLException {
        try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET status = :failed,"
                + " updated_at = :at, waiting_since = NULL, paused_state = NULL, digest = NULL, waiting_tools = NULL,"
                + " refused_count = NULL, failure_reason = 'damaged_state', failure_message = :message"
                + " WHERE id = :runId")) {
            update.set("failed", RunStatus.FAILED.code()).set("at", at)
                    .set("message", settledBy + " marked the run failed: its stored paused state was damaged")
                    .set("runId", runId).executeUpdate();
        }
    }

    /**
     * A person settles a run flagged "outcome unknown", or ends a waiting run whose paused state is damaged; see
     * {@link RunStore#settleUnknownOutcome}.
     */
    StoredRun settleUnknownOutcome(String runId, boolean retry, String settledBy, Instant at) {
        Objects.requireNonNull(settledBy, "settledBy");
        database.write("settle the unknown outcome of run " + runId, ChangeKind.RUN, connection -> {
            LockedRun row = LockedRun.existing(connection, database.dialect(), runId);
            if (row.outcomeUnknown() == null && !retry && waitsOnDamagedState(row)) {
                row.next(RunLifecycle.Event.SETTLE_FAIL);
                failDamaged(connection, runId, settledBy, at);
                return null;
            }
            if (row.outcomeUnknown() == null) {
                throw new IllegalStateException("run " + runId + " has no call whose outcome is unknown");
            }
            if (retry && StoppedGatewayRuns.gatewayStopped(connection, runId, session.live())) {
                row.next(RunLifecycle.Event.GATEWAY_STOP);
                // Shown again, the card would wait for a gateway that is gone: the run ends as a decision on it does.
                StoppedGatewayRuns.fail(connection, runId, RunRepository.GATEWAY_STOPPED + "; the outcome of "
                        + String.join(", ", RunRows.calls(row.outcomeUnknown())) + " stays unknown", at);
                return null;
            }
            if (retry) {
                PausedState card = PausedStateCodec.fromJson(row.pausedState());
                row.next(card.status() == RunStatus.WAITING_FOR_INPUT ? RunLifecycle.Event.SETTLE_RETRY_INPUT
                        : RunLifecycle.Event.SETTLE_RETRY_APPROVAL);
                DecisionClaims.putBackToWaiting(connection, card, row.pauseNumber(), row.epoch(), at);
                return null;
            }
            row.next(RunLifecycle.Event.SETTLE_FAIL);
            try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET status = :failed,"
                    + " updated_at = :at, failure_reason = 'outcome_unknown', failure_message = :message,"
                    + " claimed_decision = NULL, outcome_unknown = NULL, owner = NULL WHERE id = :runId")) {
                update.set("failed", RunStatus.FAILED.code()).set("at", at)
                        .set("message", settledBy + " marked the run failed: the outcome of "
                                + String.join(", ", RunRows.calls(row.outcomeUnknown()))
                                + " is unknown after a restart")
                        .set("runId", runId).executeUpdate();
            }
            CallJournal.clear(connection, runId);
            return null;
        });
        return runs.find(runId).orElseThrow();
    }
}
