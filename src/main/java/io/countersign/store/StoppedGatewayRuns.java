package io.countersign.store;

import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.StoredRun;
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
 * Gateway runs whose gateway stopped. A gateway run keeps, for its whole life, the session of the gateway process
 * that holds its MCP host's connection (migration V21), and only that process can answer the host: no other
 * process ever carries such a run on. Once that session is no longer live, the run's card, or a decision committed
 * and left for the gateway, waits for nobody, so the run fails as {@value #REASON}; a call that had started
 * executing is flagged "outcome unknown" as for any run, and never sent again.
 */
record StoppedGatewayRuns(Database database, StoreSession session) {
    static final String REASON = "gateway_stopped";

    /** A gateway run found without its gateway, with the owner it had then (a decider's process, or none). */
    record Stranded(String runId, String owner) {
    }

    /** The unfinished gateway runs whose gateway is no longer live, and whose owner (if any) stopped too. */
    List<Stranded> list() {
        // Runs first, then the registrations: a gateway, like any driver, registered before it wrote its run, so
        // a session missing from the registrations read after the runs has stopped.
        List<String[]> unfinished = database.read("list the unfinished gateway runs", connection -> {
            List<String[]> found = new ArrayList<>();
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT id, gateway_session, owner"
                    + " FROM runs WHERE gateway_session IS NOT NULL AND outcome_unknown IS NULL"
                    + " AND status IN (:running, :forApproval, :forInput) ORDER BY updated_at, id")) {
                select.set("running", RunStatus.RUNNING.code())
                        .set("forApproval", RunStatus.WAITING_FOR_APPROVAL.code())
                        .set("forInput", RunStatus.WAITING_FOR_INPUT.code());
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        found.add(new String[] {rows.getString(1), rows.getString(2), rows.getString(3)});
                    }
                }
            }
            return found;
        });
        if (unfinished.isEmpty()) {
            return List.of();
        }
        Set<String> live = session.live();
        return unfinished.stream().filter(run -> !live.contains(run[1]) && (run[2] == null || !live.contains(run[2])))
                .map(run -> new Stranded(run[0], run[2])).toList();
    }

    /**
     * Ends every gateway run found without its gateway (see {@link #end}), but those whose card waits on an MCP
     * task's call ({@link StoredRun#waitsOnHostTask}): the next gateway of their profile takes them over, and a
     * decision on one in between ends it.
     */
    void endAll(Instant at, RunRecords runs) {
        for (Stranded stranded : list()) {
            if (!runs.find(stranded.runId()).map(StoredRun::waitsOnHostTask).orElse(false)) {
                end(stranded, at);
            }
        }
    }

    /** Ends the run if it is found without its gateway; see {@link RunStore#endWithoutGateway}. */
    boolean end(String runId, Instant at) {
        Optional<Stranded> found = list().stream().filter(stranded -> stranded.runId().equals(runId)).findFirst();
        return found.isPresent() && end(found.get(), at);
    }

    /**
     * Makes the run, found without its gateway and still waiting for approval, this process's gateway run; see
     * {@link RunStore#adoptHosted}.
     */
    boolean adopt(String runId, Instant at) {
        Optional<Stranded> found = list().stream().filter(stranded -> stranded.runId().equals(runId)).findFirst();
        if (found.isEmpty()) {
            return false;
        }
        return database.writeIf("take over the gateway run " + runId + ", whose gateway stopped", ChangeKind.RUN,
                Boolean::booleanValue, connection -> {
                    Optional<LockedRun> locked = LockedRun.lock(connection, database.dialect(), runId);
                    // Moved on since it was found (decided, or ended): not a card to take over any more.
                    if (locked.isEmpty() || locked.get().outcomeUnknown() != null || locked.get().claimed()
                            || !Objects.equals(locked.get().owner(), found.get().owner())
                            || locked.get().status() != RunStatus.WAITING_FOR_APPROVAL) {
                        return false;
                    }
                    try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET"
                            + " gateway_session = :gateway, updated_at = :at WHERE id = :runId")) {
                        return update.set("gateway", session.id()).set("at", at).set("runId", runId)
                                .executeUpdate() == 1;
                    }
                });
    }

    private boolean end(Stranded stranded, Instant at) {
        String runId = stranded.runId();
        return database.writeIf("end the gateway run " + runId + ", whose gateway stopped", ChangeKind.RUN,
                Boolean::booleanValue, connection -> {
                    Optional<LockedRun> locked = LockedRun.lock(connection, database.dialect(), runId);
                    // Moved on since it was found (a decider's process claimed it, or it ended): not ours to end.
                    if (locked.isEmpty() || locked.get().outcomeUnknown() != null
                            || !Objects.equals(locked.get().owner(), stranded.owner())
                            || !(locked.get().status().waiting() || locked.get().status() == RunStatus.RUNNING)) {
                        return false;
                    }
                    LockedRun row = locked.get();
                    List<String> started = row.status() == RunStatus.RUNNING
                            ? CallJournal.unknownOutcomes(connection, runId) : List.of();
                    if (!started.isEmpty() && row.claimed()) {
                        row.next(RunLifecycle.Event.OUTCOME_UNKNOWN);
                        RunRecovery.flagOutcomeUnknown(connection, runId, started, at);
                        return true;
                    }
                    if (!started.isEmpty()) {
                        row.next(RunLifecycle.Event.INTERRUPTION);
                        RunRecovery.failInterrupted(connection, runId, started, at);
                        return true;
                    }
                    row.next(RunLifecycle.Event.GATEWAY_STOP);
                    fail(connection, runId, RunRepository.GATEWAY_STOPPED, at);
                    return true;
                });
    }

    /**
     * Whether the run is a gateway run whose gateway session is no longer live, read in the caller's transaction:
     * a stopped gateway never comes back, so nothing can carry the run on.
     */
    static boolean gatewayStopped(Connection connection, String runId, Set<String> live) throws SQLException {
        try (NamedStatement select = NamedStatement.prepare(connection, "SELECT gateway_session FROM runs"
                + " WHERE id = :runId")) {
            try (ResultSet row = select.set("runId", runId).executeQuery()) {
                String gateway = row.next() ? row.getString(1) : null;
                return gateway != null && !live.contains(gateway);
            }
        }
    }

    /** Ends the run as failed with reason {@value #REASON}: no card, no decision, no flag, no journal left. */
    static void fail(Connection connection, String runId, String message, Instant at) throws SQLException {
        try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET status = :failed,"
                + " updated_at = :at, waiting_since = NULL, paused_state = NULL, digest = NULL,"
                + " waiting_tools = NULL, refused_count = NULL, claimed_decision = NULL, owner = NULL,"
                + " outcome_unknown = NULL, failure_reason = :reason, failure_message = :message,"
                + " epoch = epoch + 1 WHERE id = :runId")) {
            update.set("failed", RunStatus.FAILED.code()).set("at", at).set("reason", REASON)
                    .set("message", message).set("runId", runId).executeUpdate();
        }
        CallJournal.clear(connection, runId);
    }
}
