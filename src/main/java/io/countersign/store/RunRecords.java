package io.countersign.store;

import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.declarative.RecordedCall;
import java.util.HashMap;
import java.util.Map;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The runs themselves: a new run, where each stretch ended, and the reads of runs and their calls.
 *
 * @param knownDeadlines each agent's stored deadlines ({@link StoredDeadlines#agentJson}) as a pause last found
 *                       them, empty for none: on PostgreSQL a pause checks them in its own statement
 */
record RunRecords(Database database, StoreSession session, RunRows rows,
                  Map<String, Optional<String>> knownDeadlines) {
    private static final int RECENT_CALLS_PAGE = 200;
    private static final String WAITING = "status IN (:forApproval, :forInput)";
    /** The epoch a new run starts with; every take-over grows it. */
    private static final long FIRST_EPOCH = 1;
    private static final String EMPTY_HISTORY = PausedStateCodec.historyToTree(
            ToolInvocationHistory.emptyComplete()).toString();
    private static final String INSERT_RUN = "INSERT INTO runs (id, agent, initiator, prompt, unattended, status,"
            + " created_at, updated_at, pause_number, transcript, history, iterations, prompt_tokens,"
            + " completion_tokens, owner, queued_at, epoch, gateway_session, written_at_schema) VALUES (:runId, :agent,"
            + " :initiator, :prompt, :unattended, :status, :at, :at, 0, '[]', :history, 0, 0, 0, :owner, :queuedAt, "
            + FIRST_EPOCH + ", :gatewaySession, " + Migrations.SCHEMA + ")";
    /**
     * A running run's record on PostgreSQL: the insert, its commit deferred and its NOTIFY in one statement of its
     * own transaction, one round trip instead of four (the deferral, the counter, the insert, the commit).
     */
    private static final String INSERT_RUN_IN_ONE_STATEMENT = "WITH deferred AS (SELECT " + Database.DEFER_COMMIT
            + "), inserted AS (" + INSERT_RUN + " RETURNING id) SELECT " + ChangeFeed.NOTIFY_CALL
            + " FROM deferred, inserted";
    /** Where a stretch of a run ended, for its driver; bound by {@link #bindOutcome}. */
    private static final String RECORD_OUTCOME = "UPDATE runs AS r SET status = :status,"
            + " updated_at = :at, waiting_since = :waitingSince, pause_number = pause_number + :pauses,"
            + " paused_state = :pausedState, digest = :digest, waiting_tools = :waitingTools,"
            + " refused_count = :refusedCount, transcript = :transcript, history = :history,"
            + " iterations = :iterations, prompt_tokens = :promptTokens,"
            + " completion_tokens = :completionTokens, failure_reason = :failureReason,"
            + " failure_message = :failureMessage, claimed_decision = NULL, owner = NULL,"
            + " queued_at = NULL, worker_id = NULL, lease_expires = NULL, " + StoredDeadlines.SET_PAUSE
            + " WHERE r.id = :runId AND " + LockedRun.DRIVEN;
    /** The PostgreSQL outcome that is no pause, in one statement (see {@code recordInOneStatement}). */
    private static final String RECORD_IN_ONE_STATEMENT = "WITH updated AS (" + RECORD_OUTCOME + " RETURNING r.id),"
            + " cleared AS (DELETE FROM call_intents WHERE run_id IN (SELECT id FROM updated))"
            + " SELECT u.id AS updated_id, " + ChangeFeed.NOTIFY_CALL + " FROM (SELECT 1) AS one"
            + " LEFT JOIN updated u ON TRUE";
    /** The PostgreSQL pause in one statement, under its agent's deadlines as known (see {@code recordInOneStatement}). */
    private static final String RECORD_PAUSE_IN_ONE_STATEMENT = "WITH updated AS (" + RECORD_OUTCOME
            + " AND (" + StoredDeadlines.AGENT_JSON + ") IS NOT DISTINCT FROM :knownDeadlines"
            + " RETURNING r.id, r.agent, r.initiator, r.waiting_tools, r.deadline),"
            + " cleared AS (DELETE FROM call_intents WHERE run_id IN (SELECT id FROM updated)),"
            + " queued AS (" + OutboxRows.insertFrom("updated") + ")"
            + " SELECT u.id AS updated_id, (" + StoredDeadlines.AGENT_JSON + ") AS deadlines, "
            + ChangeFeed.NOTIFY_CALL + " FROM (SELECT 1) AS one LEFT JOIN updated u ON TRUE";

    /**
     * A running run is driven by this process from the start; a queued one by whichever worker claims it. A running
     * run's record is not made durable on its own (its stretch's outcome is), a queued one's is: the queue is the
     * only record that it is to run. A {@code hosted} run is a gateway's: this process holds its MCP host's
     * connection for the run's whole life (migration V21).
     */
    RunLease insert(String runId, String agent, String initiator, String prompt, boolean unattended,
                    RunStatus status, boolean hosted, Instant at) {
        String what = "record the new run " + runId;
        SqlWork<Void> insertRun = connection -> {
            try (NamedStatement insert = NamedStatement.prepare(connection, INSERT_RUN)) {
                bindNewRun(insert, runId, agent, initiator, prompt, unattended, status, hosted, at).executeUpdate();
            }
            return null;
        };
        if (status == RunStatus.QUEUED) {
            database.write(what, ChangeKind.QUEUE, insertRun);
        } else if (database.dialect() == Dialect.POSTGRESQL) {
            database.writeDeferredStatement(what, connection -> {
                try (NamedStatement insert = NamedStatement.prepare(connection, INSERT_RUN_IN_ONE_STATEMENT)) {
                    bindNewRun(insert, runId, agent, initiator, prompt, unattended, status, hosted, at);
                    database.changes().bindNotify(insert, ChangeKind.RUN);
                    insert.executeQuery().close();
                }
                return null;
            });
            database.changes().committed(ChangeKind.RUN);
        } else {
            database.writeDeferred(what, ChangeKind.RUN, insertRun);
        }
        return new RunLease(runId, FIRST_EPOCH);
    }

    private NamedStatement bindNewRun(NamedStatement insert, String runId, String agent, String initiator,
                                      String prompt, boolean unattended, RunStatus status, boolean hosted, Instant at)
            throws SQLException {
        return insert.set("runId", runId).set("agent", agent).set("initiator", initiator).set("prompt", prompt)
                .set("unattended", unattended).set("status", status.code()).set("at", at)
                .set("history", EMPTY_HISTORY)
                .set("owner", status == RunStatus.RUNNING ? session.id() : null)
                .set("queuedAt", status == RunStatus.QUEUED ? at : null)
                .set("gatewaySession", hosted ? session.id() : null);
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
        String what = "record where run " + runId + " stands";
        Written written = Written.of(outcome);
        if (database.dialect() == Dialect.POSTGRESQL) {
            database.write(what, connection -> {
                recordInOneStatement(connection, lease, outcome, written, at);
                return null;
            });
            database.changes().committed(ChangeKind.RUN);
        } else {
            database.write(what, ChangeKind.RUN, connection -> {
                recordInTransaction(connection, lease, outcome, written, at);
                return null;
            });
        }
        if (outcome instanceof RunOutcome.Paused paused) {
            // The card is read next, most often here: from the state in hand rather than its text decoded again.
            rows.remember(paused.state(), written.pausedState());
        }
    }

    /** The run's transcript, history and paused state (null when it did not pause) as stored: each written once. */
    private record Written(String transcript, String history, String pausedState) {
        static Written of(RunOutcome outcome) {
            String transcript = PausedStateCodec.transcriptToTree(outcome.transcript()).toString();
            String history = PausedStateCodec.historyToTree(outcome.history()).toString();
            return new Written(transcript, history, outcome instanceof RunOutcome.Paused paused
                    ? PausedStateCodec.toJson(paused.state(), transcript, history) : null);
        }
    }

    /** SQLite's outcome: the run's update, the clearing of its intents and the card's webhook event. */
    private void recordInTransaction(Connection connection, RunLease lease, RunOutcome outcome, Written written,
                                     Instant at) throws SQLException {
        String runId = outcome.runId();
        PausedState state = outcome instanceof RunOutcome.Paused paused ? paused.state() : null;
        try (NamedStatement update = NamedStatement.prepare(connection, RECORD_OUTCOME)) {
            bindOutcome(update, lease, outcome, written, at, state == null ? null
                    : StoredDeadlines.agentJson(connection, state.agentConfiguration()));
            if (update.executeUpdate() == 0) {
                throw LockedRun.refusal(session, connection, database.dialect(), lease,
                        "its outcome cannot be recorded");
            }
        }
        CallJournal.clear(connection, runId);
        if (state != null) {
            OutboxRows.waiting(connection, state, at);
        }
    }

    /**
     * The PostgreSQL outcome in one statement: the run's update, the clearing of its intents, the card's webhook
     * event and the change's NOTIFY. A pause's deadline comes from its agent's deadlines as this process last read
     * them, and the update holds only while they are still stored so; when they changed, the statement returns them
     * and runs again with them, in the same transaction. The change counter is left alone, as by the claim.
     */
    private void recordInOneStatement(Connection connection, RunLease lease, RunOutcome outcome, Written written,
                                      Instant at) throws SQLException {
        PausedState state = outcome instanceof RunOutcome.Paused paused ? paused.state() : null;
        String agent = state == null ? null : state.agentConfiguration();
        Optional<String> known = agent == null ? Optional.empty() : knownDeadlines.get(agent);
        String deadlines = known != null ? known.orElse(null) : StoredDeadlines.agentJson(connection, agent);
        while (true) {
            try (NamedStatement statement = NamedStatement.prepare(connection, state == null
                    ? RECORD_IN_ONE_STATEMENT : RECORD_PAUSE_IN_ONE_STATEMENT)) {
                bindOutcome(statement, lease, outcome, written, at, deadlines);
                if (state != null) {
                    statement.set("agent", agent).set("knownDeadlines", deadlines);
                    OutboxRows.bindWaiting(statement, state, at);
                }
                database.changes().bindNotify(statement, ChangeKind.RUN);
                String stored;
                try (ResultSet row = statement.executeQuery()) {
                    row.next();
                    if (row.getString("updated_id") != null) {
                        if (agent != null) {
                            knownDeadlines.put(agent, Optional.ofNullable(deadlines));
                        }
                        return;
                    }
                    stored = agent == null ? null : row.getString("deadlines");
                }
                if (agent == null || Objects.equals(stored, deadlines)) {
                    throw LockedRun.refusal(session, connection, database.dialect(), lease,
                            "its outcome cannot be recorded");
                }
                deadlines = stored;
            }
        }
    }

    /** Binds {@link #RECORD_OUTCOME}'s parameters, a pause's deadline from its agent's stored deadlines. */
    private void bindOutcome(NamedStatement update, RunLease lease, RunOutcome outcome, Written written,
                             Instant at, String agentDeadlines) throws SQLException {
        PausedState state = outcome instanceof RunOutcome.Paused paused ? paused.state() : null;
        RunOutcome.Failed failed = outcome instanceof RunOutcome.Failed f ? f : null;
        update.set("status", outcome.status().code()).set("at", at)
                .set("waitingSince", state == null ? null : at).set("pauses", state == null ? 0 : 1);
        RunRows.bindPausedState(update, state, written.pausedState());
        StoredDeadlines.bindPause(update, state, agentDeadlines, at);
        update.set("transcript", written.transcript())
                .set("history", written.history())
                .set("iterations", outcome.counters().iterations())
                .set("promptTokens", outcome.counters().usage().promptTokens())
                .set("completionTokens", outcome.counters().usage().completionTokens())
                .set("failureReason", failed == null ? null : failed.reasonCode())
                .set("failureMessage", failed == null ? null : failed.message())
                .set("runId", outcome.runId());
        LockedRun.bindDriven(update, session, lease);
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
    List<RunSummary> recent(int limit) {
        requirePositive(limit);
        return database.read("list the recent runs", connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, RunRows.SELECT_RUNS
                    + " ORDER BY r.updated_at DESC, r.id DESC LIMIT :limit")) {
                return summaries(select.set("limit", limit));
            }
        });
    }

    /** The runs a {@link RunRows#SELECT_RUNS} finds, each summarized; see {@link RunRows#recentSummary}. */
    private List<RunSummary> summaries(NamedStatement select) throws SQLException {
        List<RunSummary> summaries = new ArrayList<>();
        try (ResultSet found = select.executeQuery()) {
            while (found.next()) {
                summaries.add(rows.recentSummary(found));
            }
        }
        return summaries;
    }

    /** The runs flagged "outcome unknown", oldest flag first; see {@link RunStore#toSettle}. */
    List<RunSummary> toSettle() {
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
    List<WaitingRun> waitingSummaries() {
        return database.read("list the waiting runs", connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT id, status, agent, initiator,"
                    + " prompt, waiting_since, digest, waiting_tools, refused_count, " + StoredDeadlines.COLUMNS + ","
                    + " CASE WHEN waiting_tools IS NULL THEN paused_state END AS unsummarized_state"
                    + " FROM runs WHERE " + WAITING + " ORDER BY waiting_since, id")) {
                List<WaitingRun> waiting = new ArrayList<>();
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

    /** See {@link io.countersign.engine.port.RecordedCalls#since}. */
    List<RecordedCall> recordedCalls(Instant since, int limit) {
        requirePositive(limit);
        return database.read("read the recorded tool calls", connection -> {
            List<RecordedCall> calls = new ArrayList<>();
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT id, agent, initiator, updated_at,"
                    + " paused_state, transcript, history FROM runs WHERE updated_at >= :since"
                    + " ORDER BY updated_at DESC, id DESC")) {
                try (ResultSet found = select.set("since", Nanos.of(since)).executeQuery()) {
                    while (found.next() && calls.size() < limit) {
                        String state = found.getString("paused_state");
                        PausedState paused = state == null ? null : PausedStateCodec.fromJson(state);
                        List<ChatMessage> transcript = paused != null ? paused.transcript()
                                : PausedStateCodec.transcriptFromTree(RunRows.readJson(found.getString("transcript")));
                        List<ToolInvocationObservation> history = paused != null ? paused.history().observations()
                                : PausedStateCodec.historyFromTree(RunRows.readJson(found.getString("history")))
                                .observations();
                        Map<String, ToolInvocationTarget> waiting = new HashMap<>();
                        if (paused != null) {
                            paused.calls().stream().filter(call -> call.target() != null)
                                    .forEach(call -> waiting.put(call.call().id(), call.target()));
                        }
                        addCalls(calls, limit, found.getString("id"), found.getString("agent"),
                                found.getString("initiator"), Nanos.toInstant(found.getLong("updated_at")),
                                transcript, history, waiting);
                    }
                }
            }
            return calls;
        });
    }

    /**
     * The calls of one run's transcript, each paired with the history's observation at its place when the tool
     * names agree (its target), or with the target its pause resolved for a call of the waiting turn, and with the
     * observations before it.
     */
    private static void addCalls(List<RecordedCall> calls, int limit, String runId, String agent, String person,
                                 Instant at, List<ChatMessage> transcript, List<ToolInvocationObservation> history,
                                 Map<String, ToolInvocationTarget> waiting) {
        int observed = 0;
        for (ChatMessage message : transcript) {
            for (ToolCall call : message.toolCalls()) {
                if (calls.size() >= limit) {
                    return;
                }
                ToolInvocationObservation observation = observed < history.size() ? history.get(observed) : null;
                boolean paired = observation != null && observation.toolName().equals(call.name());
                calls.add(new RecordedCall(runId, agent, person, at, call.name(), call.arguments(),
                        paired ? observation.target() : waiting.get(call.id()), history.subList(0, Math.min(observed, history.size()))));
                observed++;
            }
        }
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
