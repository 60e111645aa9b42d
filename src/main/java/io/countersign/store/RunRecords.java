package io.countersign.store;

import io.countersign.engine.invocation.ToolInvocationHistory;
import io.countersign.engine.invocation.ToolInvocationObservation;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.PausedState;
import io.countersign.engine.run.PausedStateCodec;
import io.countersign.engine.run.RecentRunSummary;
import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.run.RunOutcome;
import io.countersign.engine.run.RunStatus;
import io.countersign.engine.run.WaitingRunSummary;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/** The runs themselves: a new run, where each stretch ended, and the reads of runs and their calls. */
record RunRecords(Database database, StoreSession session, RunRows rows) {
    private static final int RECENT_CALLS_PAGE = 200;
    private static final String WAITING = "status IN (:forApproval, :forInput)";
    /** The epoch a new run starts with; every take-over grows it. */
    private static final long FIRST_EPOCH = 1;

    /**
     * A running run is driven by this process from the start; a queued one by whichever worker claims it. A running
     * run's record is not made durable on its own (its stretch's outcome is), a queued one's is: the queue is the
     * only record that it is to run. A {@code hosted} run is a gateway's: this process holds its MCP host's
     * connection for the run's whole life (migration V21).
     */
    RunLease insert(String runId, String agent, String initiator, String prompt, boolean unattended,
                    RunStatus status, boolean hosted, Instant at) {
        SqlWork<Void> work = connection -> {
            try (NamedStatement insert = NamedStatement.prepare(connection, "INSERT INTO runs (id, agent,"
                    + " initiator, prompt, unattended, status, created_at, updated_at, pause_number, transcript,"
                    + " history, iterations, prompt_tokens, completion_tokens, owner, queued_at, epoch, gateway_session,"
                    + " written_at_schema) VALUES (:runId, :agent, :initiator, :prompt, :unattended, :status, :at, :at,"
                    + " 0, '[]', :history, 0, 0, 0, :owner, :queuedAt, " + FIRST_EPOCH + ", :gatewaySession, "
                    + Migrations.SCHEMA + ")")) {
                insert.set("runId", runId).set("agent", agent).set("initiator", initiator).set("prompt", prompt)
                        .set("unattended", unattended).set("status", status.code()).set("at", at)
                        .set("history", PausedStateCodec.historyToTree(ToolInvocationHistory.emptyComplete())
                                .toString())
                        .set("owner", status == RunStatus.RUNNING ? session.id() : null)
                        .set("queuedAt", status == RunStatus.QUEUED ? at : null)
                        .set("gatewaySession", hosted ? session.id() : null)
                        .executeUpdate();
            }
            return null;
        };
        String what = "record the new run " + runId;
        if (status == RunStatus.QUEUED) {
            database.write(what, ChangeKind.RUN, work);
        } else {
            database.writeDeferred(what, ChangeKind.RUN, work);
        }
        return new RunLease(runId, FIRST_EPOCH);
    }

    /**
     * Records where a stretch of a run ended, for the lease's driver; see {@link RunStore#recordOutcome}. One
     * statement checks the lease and writes the outcome.
     */
    void recordOutcome(RunLease lease, RunOutcome outcome, Instant at) {
        String runId = outcome.runId();
        if (!lease.runId().equals(runId)) {
            throw new IllegalArgumentException("the lease of run " + lease.runId() + " cannot record the outcome of"
                    + " run " + runId);
        }
        LockedRun.requireDriven(runId, RunLifecycle.ending(outcome));
        if (outcome instanceof RunOutcome.OutcomeUnknown unknown) {
            flagOutcomeUnknown(lease, unknown, at);
            return;
        }
        database.write("record where run " + runId + " stands", ChangeKind.RUN, connection -> {
            PausedState state = outcome instanceof RunOutcome.Paused paused ? paused.state() : null;
            RunOutcome.Failed failed = outcome instanceof RunOutcome.Failed f ? f : null;
            try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs AS r SET status = :status,"
                    + " updated_at = :at, waiting_since = :waitingSince, pause_number = pause_number + :pauses,"
                    + " paused_state = :pausedState, digest = :digest, waiting_tools = :waitingTools,"
                    + " refused_count = :refusedCount, transcript = :transcript, history = :history,"
                    + " iterations = :iterations, prompt_tokens = :promptTokens,"
                    + " completion_tokens = :completionTokens, failure_reason = :failureReason,"
                    + " failure_message = :failureMessage, claimed_decision = NULL, owner = NULL,"
                    + " queued_at = NULL, worker_id = NULL, lease_expires = NULL, " + StoredDeadlines.SET_PAUSE
                    + " WHERE r.id = :runId AND " + LockedRun.DRIVEN)) {
                update.set("status", outcome.status().code()).set("at", at)
                        .set("waitingSince", state == null ? null : at).set("pauses", state == null ? 0 : 1);
                RunRows.bindPausedState(update, state);
                StoredDeadlines.bindPause(update, connection, state, at);
                update.set("transcript", PausedStateCodec.transcriptToTree(outcome.transcript()).toString())
                        .set("history", PausedStateCodec.historyToTree(outcome.history()).toString())
                        .set("iterations", outcome.counters().iterations())
                        .set("promptTokens", outcome.counters().usage().promptTokens())
                        .set("completionTokens", outcome.counters().usage().completionTokens())
                        .set("failureReason", failed == null ? null : failed.reasonCode())
                        .set("failureMessage", failed == null ? null : failed.message())
                        .set("runId", runId);
                if (LockedRun.bindDriven(update, session, lease).executeUpdate() == 0) {
                    throw LockedRun.refusal(session, connection, database.dialect(), lease,
                            "its outcome cannot be recorded");
                }
            }
            CallJournal.clear(connection, runId);
            if (state != null) {
                OutboxRows.waiting(connection, state, at);
            }
            return null;
        });
    }

    /**
     * Flags the run with the call whose outcome is unknown, for the lease's driver: the run keeps its card and
     * decision for {@code settle --retry}, and the call's intent stays open in the journal, as after a crash.
     */
    private void flagOutcomeUnknown(RunLease lease, RunOutcome.OutcomeUnknown outcome, Instant at) {
        String runId = outcome.runId();
        database.write("flag the unknown outcome of run " + runId, ChangeKind.RUN, connection -> {
            try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs AS r SET"
                    + " outcome_unknown = :calls, updated_at = :at, failure_reason = 'outcome_unknown',"
                    + " failure_message = :message, owner = NULL, queued_at = NULL, worker_id = NULL,"
                    + " lease_expires = NULL WHERE r.id = :runId AND " + LockedRun.DRIVEN)) {
                update.set("calls", RunRows.callsToJson(List.of(outcome.callId()))).set("at", at)
                        .set("message", outcome.reason() + "; settle it: countersign settle " + runId
                                + " --retry (decide again) or --fail")
                        .set("runId", runId);
                if (LockedRun.bindDriven(update, session, lease).executeUpdate() == 0) {
                    throw LockedRun.refusal(session, connection, database.dialect(), lease,
                            "its unknown outcome cannot be flagged");
                }
            }
            return null;
        });
    }

    Optional<StoredRun> find(String runId) {
        return database.read("read run " + runId, connection -> rows.find(connection, runId));
    }

    /** The recent runs, each damaged one listed as such; see {@link RunRows#recentSummary}. */
    List<RecentRunSummary> recent(int limit) {
        requirePositive(limit);
        return database.read("list the recent runs", connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, RunRows.SELECT_RUNS
                    + " ORDER BY r.updated_at DESC, r.id DESC LIMIT :limit")) {
                return summaries(select.set("limit", limit));
            }
        });
    }

    /** The runs a {@link RunRows#SELECT_RUNS} finds, each summarized; see {@link RunRows#recentSummary}. */
    private List<RecentRunSummary> summaries(NamedStatement select) throws SQLException {
        List<RecentRunSummary> summaries = new ArrayList<>();
        try (ResultSet found = select.executeQuery()) {
            while (found.next()) {
                summaries.add(rows.recentSummary(found));
            }
        }
        return summaries;
    }

    /** The runs flagged "outcome unknown", oldest flag first; see {@link RunStore#toSettle}. */
    List<RecentRunSummary> toSettle() {
        return database.read("list the runs whose outcome is unknown", connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, RunRows.SELECT_RUNS
                    + " WHERE r.status = :running AND r.outcome_unknown IS NOT NULL ORDER BY r.updated_at, r.id")) {
                return summaries(select.set("running", RunStatus.RUNNING.code()));
            }
        });
    }

    List<StoredRun> waiting() {
        return database.read("list the waiting runs", connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, RunRows.SELECT_RUNS + " WHERE r."
                    + WAITING + " ORDER BY r.waiting_since, r.id")) {
                return rows.runs(waitingStatuses(select));
            }
        });
    }

    /** The waiting runs from the summary written beside each paused state; see {@link RunRows#summary}. */
    List<WaitingRunSummary> waitingSummaries() {
        return database.read("list the waiting runs", connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT id, status, agent, initiator,"
                    + " prompt, waiting_since, digest, waiting_tools, refused_count, " + StoredDeadlines.COLUMNS + ","
                    + " CASE WHEN waiting_tools IS NULL THEN paused_state END AS unsummarized_state"
                    + " FROM runs WHERE " + WAITING + " ORDER BY waiting_since, id")) {
                List<WaitingRunSummary> waiting = new ArrayList<>();
                try (ResultSet found = waitingStatuses(select).executeQuery()) {
                    while (found.next()) {
                        waiting.add(rows.summary(found).withDeadline(StoredDeadlines.read(found).orElse(null)));
                    }
                }
                return waiting;
            }
        });
    }

    /**
     * The tool calls recorded in the histories of the most recently updated runs, newest first (the runs by
     * their last update, each run's calls from its last back to its first), at most {@code limit}.
     */
    List<ToolInvocationObservation> recentCalls(int limit) {
        requirePositive(limit);
        return database.read("read the recent tool calls", connection -> {
            List<ToolInvocationObservation> calls = new ArrayList<>();
            long beforeTime = Long.MAX_VALUE;
            String beforeId = "";
            boolean more = true;
            while (more && calls.size() < limit) {
                more = false;
                try (NamedStatement select = NamedStatement.prepare(connection, "SELECT id, updated_at, history"
                        + " FROM runs WHERE updated_at < :beforeTime OR (updated_at = :beforeTime AND id < :beforeId)"
                        + " ORDER BY updated_at DESC, id DESC LIMIT " + RECENT_CALLS_PAGE)) {
                    try (ResultSet found = select.set("beforeTime", beforeTime).set("beforeId", beforeId)
                            .executeQuery()) {
                        while (found.next() && calls.size() < limit) {
                            more = true;
                            beforeId = found.getString("id");
                            beforeTime = found.getLong("updated_at");
                            List<ToolInvocationObservation> observed = new ArrayList<>(PausedStateCodec
                                    .historyFromTree(RunRows.readJson(found.getString("history"))).observations());
                            Collections.reverse(observed);
                            calls.addAll(observed.subList(0, Math.min(observed.size(), limit - calls.size())));
                        }
                    }
                }
            }
            return calls;
        });
    }

    private static NamedStatement waitingStatuses(NamedStatement select) throws SQLException {
        return select.set("forApproval", RunStatus.WAITING_FOR_APPROVAL.code())
                .set("forInput", RunStatus.WAITING_FOR_INPUT.code());
    }

    private static void requirePositive(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
    }
}
