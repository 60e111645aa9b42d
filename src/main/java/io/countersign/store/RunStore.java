package io.countersign.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.ApprovalDecision;
import io.countersign.engine.ChatMessage;
import io.countersign.engine.DecisionRecord;
import io.countersign.engine.ExecutionJournal;
import io.countersign.engine.PausedState;
import io.countersign.engine.PausedStateCodec;
import io.countersign.engine.RunCounters;
import io.countersign.engine.RunOutcome;
import io.countersign.engine.RunRepository;
import io.countersign.engine.RunStatus;
import io.countersign.engine.StoredRun;
import io.countersign.engine.TokenUsage;
import io.countersign.engine.ToolInvocationHistory;
import io.countersign.engine.ToolInvocationObservation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Runs, their decisions and the execution journal, on SQLite or PostgreSQL. The decision claim is one
 * conditional update plus an insert under a unique key, in one transaction: of several deciders in several
 * processes exactly one commits, and the others read the winner.
 */
public final class RunStore implements RunRepository {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "id, agent, initiator, prompt, unattended, status, created_at, updated_at,"
            + " waiting_since, pause_number, paused_state, transcript, history, iterations, prompt_tokens,"
            + " completion_tokens, failure_reason, failure_message, claimed_decision, outcome_unknown";

    private static final int RECENT_CALLS_PAGE = 200;

    private final Database database;
    private final ExecutionJournal journal = new Journal();

    RunStore(Database database) {
        this.database = database;
    }

    @Override
    public void create(String runId, String agent, String initiator, String prompt, boolean unattended, Instant at) {
        insert(runId, agent, initiator, prompt, unattended, RunStatus.RUNNING, at);
    }

    /**
     * Records a new run in status {@link RunStatus#QUEUED}: nothing of it has run, and a worker that
     * {@linkplain #claimNext claims} it runs its first stretch.
     */
    public void enqueue(String runId, String agent, String initiator, String prompt, boolean unattended, Instant at) {
        insert(runId, agent, initiator, prompt, unattended, RunStatus.QUEUED, at);
    }

    private void insert(String runId, String agent, String initiator, String prompt, boolean unattended,
                        RunStatus status, Instant at) {
        database.write("record the new run " + runId, ChangeKind.RUN, connection -> {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO runs (id, agent, initiator,"
                    + " prompt, unattended, status, created_at, updated_at, pause_number, transcript, history,"
                    + " iterations, prompt_tokens, completion_tokens, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0,"
                    + " '[]', ?, 0, 0, 0, ?)")) {
                insert.setString(1, runId);
                insert.setString(2, agent);
                insert.setString(3, initiator);
                insert.setString(4, prompt);
                insert.setBoolean(5, unattended);
                insert.setString(6, status.code());
                insert.setLong(7, Nanos.of(at));
                insert.setLong(8, Nanos.of(at));
                insert.setString(9, PausedStateCodec.historyToTree(ToolInvocationHistory.emptyComplete()).toString());
                setNullableTime(insert, 10, status == RunStatus.QUEUED ? at : null);
                insert.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void recordOutcome(RunOutcome outcome, Instant at) {
        database.write("record where run " + outcome.runId() + " stands", ChangeKind.RUN, connection -> {
            PausedState state = outcome instanceof RunOutcome.Paused paused ? paused.state() : null;
            String failureReason = null;
            String failureMessage = null;
            if (outcome instanceof RunOutcome.Failed failed) {
                failureReason = failed.reasonCode();
                failureMessage = failed.message();
            }
            try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?, updated_at = ?,"
                    + " waiting_since = ?, pause_number = pause_number + ?, paused_state = ?, digest = ?,"
                    + " transcript = ?, history = ?, iterations = ?, prompt_tokens = ?, completion_tokens = ?,"
                    + " failure_reason = ?, failure_message = ?, claimed_decision = NULL, queued_at = NULL,"
                    + " worker_id = NULL, lease_expires = NULL WHERE id = ?")) {
                update.setString(1, outcome.status().code());
                update.setLong(2, Nanos.of(at));
                setNullableTime(update, 3, state == null ? null : at);
                update.setInt(4, state == null ? 0 : 1);
                update.setString(5, state == null ? null : PausedStateCodec.toJson(state));
                update.setString(6, state == null ? null : state.digest());
                update.setString(7, PausedStateCodec.transcriptToTree(outcome.transcript()).toString());
                update.setString(8, PausedStateCodec.historyToTree(outcome.history()).toString());
                update.setInt(9, outcome.counters().iterations());
                update.setLong(10, outcome.counters().usage().promptTokens());
                update.setLong(11, outcome.counters().usage().completionTokens());
                update.setString(12, failureReason);
                update.setString(13, failureMessage);
                update.setString(14, outcome.runId());
                requireOneRow(update.executeUpdate(), outcome.runId());
            }
            clearJournal(connection, outcome.runId());
            return null;
        });
    }

    @Override
    public Optional<StoredRun> find(String runId) {
        return database.read("read run " + runId, connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS
                    + " FROM runs WHERE id = ?")) {
                select.setString(1, runId);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(toRun(connection, row)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public List<StoredRun> recent(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        return database.read("list the recent runs", connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS + " FROM runs"
                    + " ORDER BY updated_at DESC, id DESC LIMIT ?")) {
                select.setInt(1, limit);
                return toRuns(connection, select);
            }
        });
    }

    @Override
    public List<StoredRun> waiting() {
        return database.read("list the waiting runs", connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS + " FROM runs WHERE"
                    + " status IN (?, ?) ORDER BY waiting_since, id")) {
                select.setString(1, RunStatus.WAITING_FOR_APPROVAL.code());
                select.setString(2, RunStatus.WAITING_FOR_INPUT.code());
                return toRuns(connection, select);
            }
        });
    }

    @Override
    public ClaimResult claim(DecisionRecord decision) {
        return claim(decision, RunStatus.RUNNING);
    }

    /**
     * Claims a waiting run for a decision exactly as {@link #claim} does, but leaves the committed decision for a
     * worker to carry out: the run goes to {@link RunStatus#QUEUED} with the decision, in the same transaction,
     * and {@link #claimNext} hands it to a worker.
     */
    public ClaimResult claimForWorker(DecisionRecord decision) {
        return claim(decision, RunStatus.QUEUED);
    }

    private ClaimResult claim(DecisionRecord decision, RunStatus claimedStatus) {
        RunStatus expected = decision.kind() == DecisionRecord.Kind.APPROVAL
                ? RunStatus.WAITING_FOR_APPROVAL : RunStatus.WAITING_FOR_INPUT;
        return database.write("commit the decision on run " + decision.runId(), ChangeKind.DECISION, connection -> {
            Optional<Row> current = lockedRow(connection, decision.runId());
            if (current.isEmpty()) {
                return new ClaimResult.NotWaiting(null);
            }
            Row row = current.get();
            if (row.status != expected) {
                // Claimed by someone else for this pause, or decided on this card before the run moved on.
                Optional<DecisionRecord> winner = decisionFor(connection, decision.runId(), row.pauseNumber)
                        .or(() -> latestDecisionQuietly(connection, decision.runId())
                                .filter(last -> last.digest().equals(decision.digest())));
                return winner.<ClaimResult>map(ClaimResult.AlreadyDecided::new)
                        .orElseGet(() -> new ClaimResult.NotWaiting(row.status));
            }
            if (!row.digest.equals(decision.digest())) {
                return new ClaimResult.Stale(row.digest);
            }
            long decisionId = insertDecision(connection, decision, row.pauseNumber);
            try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?,"
                    + " claimed_decision = ?, updated_at = ?, queued_at = ? WHERE id = ? AND status = ?"
                    + " AND pause_number = ?")) {
                update.setString(1, claimedStatus.code());
                update.setLong(2, decisionId);
                update.setLong(3, Nanos.of(decision.decidedAt()));
                setNullableTime(update, 4, claimedStatus == RunStatus.QUEUED ? decision.decidedAt() : null);
                update.setString(5, decision.runId());
                update.setString(6, expected.code());
                update.setInt(7, row.pauseNumber);
                requireOneRow(update.executeUpdate(), decision.runId());
            }
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS
                    + " FROM runs WHERE id = ?")) {
                select.setString(1, decision.runId());
                try (ResultSet claimed = select.executeQuery()) {
                    claimed.next();
                    return new ClaimResult.Claimed(toRun(connection, claimed));
                }
            }
        });
    }

    @Override
    public void release(PausedState state, Instant at) {
        database.write("put run " + state.runId() + " back to waiting", ChangeKind.RUN, connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?, updated_at = ?,"
                    + " paused_state = ?, digest = ?, claimed_decision = NULL, outcome_unknown = NULL, queued_at = NULL,"
                    + " worker_id = NULL, lease_expires = NULL WHERE id = ?")) {
                update.setString(1, state.status().code());
                update.setLong(2, Nanos.of(at));
                update.setString(3, PausedStateCodec.toJson(state));
                update.setString(4, state.digest());
                update.setString(5, state.runId());
                requireOneRow(update.executeUpdate(), state.runId());
            }
            // The released decision did not go through; the pause may be decided again.
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM decisions WHERE run_id = ?"
                    + " AND pause_number = (SELECT pause_number FROM runs WHERE id = ?)")) {
                delete.setString(1, state.runId());
                delete.setString(2, state.runId());
                delete.executeUpdate();
            }
            clearJournal(connection, state.runId());
            return null;
        });
    }

    @Override
    public ExecutionJournal journal() {
        return journal;
    }

    @Override
    public List<StoredRun> reconcile(Instant at) {
        List<String> running = database.read("list the runs left running", connection -> {
            List<String> ids = new ArrayList<>();
            // A run under a worker's lease is the worker's: recoverAbandoned takes it back once the lease lapses.
            try (PreparedStatement select = connection.prepareStatement("SELECT id FROM runs WHERE status = ?"
                    + " AND worker_id IS NULL")) {
                select.setString(1, RunStatus.RUNNING.code());
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getString(1));
                    }
                }
            }
            return ids;
        });
        List<StoredRun> toResume = new ArrayList<>();
        for (String runId : running) {
            reconcileOne(runId, at).ifPresent(toResume::add);
        }
        return toResume;
    }

    /**
     * Hands the oldest queued run to a worker: its status becomes {@link RunStatus#RUNNING} under the worker's
     * lease. One statement claims it (on PostgreSQL the row is chosen {@code FOR UPDATE SKIP LOCKED}, on SQLite
     * the write lock is held), so of several workers in several processes exactly one gets each run.
     *
     * @param workerId     who claims it; {@link #renewLease} keeps the lease alive
     * @param leaseExpires when the claim lapses unless renewed; a lapsed run is {@linkplain #recoverAbandoned
     *                     recovered}
     * @return the claimed run: a first stretch when {@link StoredRun#pausedState()} is {@code null}, else a pause
     *         whose committed decision ({@link StoredRun#lastDecision()}) is to be carried out; empty when no run
     *         is queued
     */
    public Optional<StoredRun> claimNext(String workerId, Instant leaseExpires, Instant at) {
        String skipLocked = database.dialect() == Dialect.POSTGRESQL ? " FOR UPDATE SKIP LOCKED" : "";
        // No change signal: a claim only moves a run between two states nobody watches, and an empty claim
        // must not wake every other worker.
        return database.write("claim a queued run", connection -> {
            String runId;
            try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?, worker_id = ?,"
                    + " lease_expires = ?, updated_at = ?, queued_at = NULL WHERE id = (SELECT id FROM runs"
                    + " WHERE status = ? ORDER BY queued_at, id LIMIT 1" + skipLocked + ") AND status = ?"
                    + " RETURNING id")) {
                update.setString(1, RunStatus.RUNNING.code());
                update.setString(2, workerId);
                update.setLong(3, Nanos.of(leaseExpires));
                update.setLong(4, Nanos.of(at));
                update.setString(5, RunStatus.QUEUED.code());
                update.setString(6, RunStatus.QUEUED.code());
                try (ResultSet claimed = update.executeQuery()) {
                    if (!claimed.next()) {
                        return Optional.<StoredRun>empty();
                    }
                    runId = claimed.getString(1);
                }
            }
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS
                    + " FROM runs WHERE id = ?")) {
                select.setString(1, runId);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    return Optional.of(toRun(connection, row));
                }
            }
        });
    }

    /**
     * Extends a worker's lease on a run it executes.
     *
     * @return false when the worker no longer holds the run: its lease lapsed and the run was recovered
     */
    public boolean renewLease(String runId, String workerId, Instant leaseExpires) {
        return database.write("renew the lease of worker " + workerId + " on run " + runId, connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET lease_expires = ?"
                    + " WHERE id = ? AND worker_id = ? AND status = ?")) {
                update.setLong(1, Nanos.of(leaseExpires));
                update.setString(2, runId);
                update.setString(3, workerId);
                update.setString(4, RunStatus.RUNNING.code());
                return update.executeUpdate() == 1;
            }
        });
    }

    /**
     * Recovers the runs whose worker stopped: those still running with a lease that ran out before {@code at}.
     * As {@link #reconcile} does for one process: a run with calls in its execution journal is flagged with the
     * calls whose outcome is unknown and left for a person; a run with an empty journal executed nothing of its
     * stretch, so it goes back to the queue, to run its first stretch or carry out its committed decision again.
     * Runs that another worker is recovering at the same moment are skipped.
     *
     * @return the recovered runs as they are now
     */
    public List<StoredRun> recoverAbandoned(Instant at) {
        List<String> lapsed = database.read("list the runs whose worker stopped", connection -> {
            List<String> ids = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT id FROM runs WHERE status = ?"
                    + " AND lease_expires < ? ORDER BY id")) {
                select.setString(1, RunStatus.RUNNING.code());
                select.setLong(2, Nanos.of(at));
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getString(1));
                    }
                }
            }
            return ids;
        });
        List<StoredRun> recovered = new ArrayList<>();
        for (String runId : lapsed) {
            if (recoverOne(runId, at)) {
                find(runId).ifPresent(recovered::add);
            }
        }
        return recovered;
    }

    private boolean recoverOne(String runId, Instant at) {
        String skipLocked = database.dialect() == Dialect.POSTGRESQL ? " FOR UPDATE SKIP LOCKED" : "";
        return database.write("recover run " + runId + " from its stopped worker", ChangeKind.RUN, connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id FROM runs WHERE id = ?"
                    + " AND status = ? AND lease_expires < ?" + skipLocked)) {
                select.setString(1, runId);
                select.setString(2, RunStatus.RUNNING.code());
                select.setLong(3, Nanos.of(at));
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return false;
                    }
                }
            }
            List<String> unknown = journalledCalls(connection, runId);
            if (unknown.isEmpty()) {
                try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?,"
                        + " queued_at = ?, updated_at = ?, worker_id = NULL, lease_expires = NULL WHERE id = ?")) {
                    update.setString(1, RunStatus.QUEUED.code());
                    update.setLong(2, Nanos.of(at));
                    update.setLong(3, Nanos.of(at));
                    update.setString(4, runId);
                    update.executeUpdate();
                }
            } else {
                try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET outcome_unknown = ?,"
                        + " updated_at = ?, worker_id = NULL, lease_expires = NULL WHERE id = ?")) {
                    ArrayNode calls = JSON.createArrayNode();
                    unknown.forEach(calls::add);
                    update.setString(1, calls.toString());
                    update.setLong(2, Nanos.of(at));
                    update.setString(3, runId);
                    update.executeUpdate();
                }
            }
            return true;
        });
    }

    /**
     * The tool calls recorded in the histories of the most recently updated runs, newest first (the runs by
     * their last update, each run's calls from its last back to its first), at most {@code limit}.
     */
    public List<ToolInvocationObservation> recentCalls(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        return database.read("read the recent tool calls", connection -> {
            List<ToolInvocationObservation> calls = new ArrayList<>();
            long beforeTime = Long.MAX_VALUE;
            String beforeId = "";
            boolean more = true;
            while (more && calls.size() < limit) {
                more = false;
                try (PreparedStatement select = connection.prepareStatement("SELECT id, updated_at, history"
                        + " FROM runs WHERE updated_at < ? OR (updated_at = ? AND id < ?)"
                        + " ORDER BY updated_at DESC, id DESC LIMIT " + RECENT_CALLS_PAGE)) {
                    select.setLong(1, beforeTime);
                    select.setLong(2, beforeTime);
                    select.setString(3, beforeId);
                    try (ResultSet rows = select.executeQuery()) {
                        while (rows.next() && calls.size() < limit) {
                            more = true;
                            beforeId = rows.getString(1);
                            beforeTime = rows.getLong(2);
                            List<ToolInvocationObservation> observed = new ArrayList<>(PausedStateCodec
                                    .historyFromTree(readJson(rows.getString(3))).observations());
                            Collections.reverse(observed);
                            calls.addAll(observed.subList(0, Math.min(observed.size(), limit - calls.size())));
                        }
                    }
                }
            }
            return calls;
        });
    }

    /**
     * One run left running by a stopped process. Calls in its journal mean the crash came while the turn
     * executed: the run is flagged with the calls whose outcome is unknown (those with an intent and no outcome;
     * if every call finished, their results were lost with the process, so all of them). A committed decision
     * with an empty journal is returned to be carried out again. A first stretch that never paused has no
     * state to resume from and fails as interrupted.
     */
    private Optional<StoredRun> reconcileOne(String runId, Instant at) {
        StoredRun run = find(runId).orElseThrow();
        if (run.outcomeUnknown()) {
            return Optional.empty();
        }
        List<String> unknown = database.read("read the journal of run " + runId,
                connection -> journalledCalls(connection, runId));
        if (!unknown.isEmpty()) {
            database.write("flag run " + runId + " as outcome unknown", ChangeKind.RUN, connection -> {
                try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET outcome_unknown = ?,"
                        + " updated_at = ? WHERE id = ?")) {
                    ArrayNode calls = JSON.createArrayNode();
                    unknown.forEach(calls::add);
                    update.setString(1, calls.toString());
                    update.setLong(2, Nanos.of(at));
                    update.setString(3, runId);
                    update.executeUpdate();
                }
                return null;
            });
            return Optional.empty();
        }
        if (run.lastDecision() != null && run.pausedState() != null) {
            return Optional.of(run);
        }
        database.write("mark run " + runId + " as interrupted", ChangeKind.RUN, connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?, updated_at = ?,"
                    + " failure_reason = 'interrupted', failure_message = ? WHERE id = ? AND status = ?")) {
                update.setString(1, RunStatus.FAILED.code());
                update.setLong(2, Nanos.of(at));
                update.setString(3, "the process running this run stopped before the run paused or finished");
                update.setString(4, runId);
                update.setString(5, RunStatus.RUNNING.code());
                update.executeUpdate();
            }
            return null;
        });
        return Optional.empty();
    }

    private static List<String> journalledCalls(Connection connection, String runId) throws SQLException {
        List<String> open = new ArrayList<>();
        List<String> all = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT call_id, outcome FROM call_intents"
                + " WHERE run_id = ? ORDER BY id")) {
            select.setString(1, runId);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    all.add(rows.getString(1));
                    if (rows.getString(2) == null) {
                        open.add(rows.getString(1));
                    }
                }
            }
        }
        return open.isEmpty() ? all : open;
    }

    @Override
    public StoredRun settleUnknownOutcome(String runId, boolean retry, String settledBy, Instant at) {
        StoredRun run = find(runId).orElseThrow(() -> new IllegalArgumentException("no run has the id \""
                + runId + "\""));
        if (!run.outcomeUnknown()) {
            throw new IllegalStateException("run " + runId + " has no call whose outcome is unknown");
        }
        if (retry) {
            release(run.pausedState(), at);
        } else {
            database.write("mark run " + runId + " as failed", ChangeKind.RUN, connection -> {
                try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?,"
                        + " updated_at = ?, failure_reason = 'outcome_unknown', failure_message = ?,"
                        + " claimed_decision = NULL, outcome_unknown = NULL WHERE id = ?")) {
                    update.setString(1, RunStatus.FAILED.code());
                    update.setLong(2, Nanos.of(at));
                    update.setString(3, settledBy + " marked the run failed: the outcome of "
                            + String.join(", ", run.unknownOutcomeCalls()) + " is unknown after a restart");
                    update.setString(4, runId);
                    update.executeUpdate();
                }
                clearJournal(connection, runId);
                return null;
            });
        }
        return find(runId).orElseThrow();
    }

    private Optional<Row> lockedRow(Connection connection, String runId) throws SQLException {
        // FOR UPDATE makes a competing claim on PostgreSQL wait for this one; SQLite's IMMEDIATE transaction
        // already holds the write lock.
        String lock = database.dialect() == Dialect.POSTGRESQL ? " FOR UPDATE" : "";
        try (PreparedStatement select = connection.prepareStatement("SELECT status, digest, pause_number FROM runs"
                + " WHERE id = ?" + lock)) {
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Row(RunStatus.fromCode(row.getString(1)), row.getString(2), row.getInt(3)));
            }
        }
    }

    private record Row(RunStatus status, String digest, int pauseNumber) {
    }

    private static long insertDecision(Connection connection, DecisionRecord decision, int pauseNumber)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO decisions (run_id, pause_number,"
                + " decided_by, decided_at, kind, digest, summary, verdicts, input) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
                + " ?)", new String[] {"id"})) {
            insert.setString(1, decision.runId());
            insert.setInt(2, pauseNumber);
            insert.setString(3, decision.decidedBy());
            insert.setLong(4, Nanos.of(decision.decidedAt()));
            insert.setString(5, decision.kind().name());
            insert.setString(6, decision.digest());
            insert.setString(7, decision.summary());
            insert.setString(8, verdictsToJson(decision.verdicts()));
            insert.setString(9, decision.input() == null ? null : decision.input().toString());
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    private static Optional<DecisionRecord> decisionFor(Connection connection, String runId, int pauseNumber)
            throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT run_id, decided_by, decided_at, kind,"
                + " digest, summary, verdicts, input FROM decisions WHERE run_id = ? AND pause_number = ?")) {
            select.setString(1, runId);
            select.setInt(2, pauseNumber);
            return firstDecision(select);
        }
    }

    private static Optional<DecisionRecord> latestDecisionQuietly(Connection connection, String runId) {
        try {
            return latestDecision(connection, runId);
        } catch (SQLException e) {
            throw new StoreException("Countersign could not read the decisions of run " + runId + ": "
                    + e.getMessage() + ".", e);
        }
    }

    private static Optional<DecisionRecord> latestDecision(Connection connection, String runId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT run_id, decided_by, decided_at, kind,"
                + " digest, summary, verdicts, input FROM decisions WHERE run_id = ? ORDER BY pause_number DESC")) {
            select.setString(1, runId);
            return firstDecision(select);
        }
    }

    private static Optional<DecisionRecord> firstDecision(PreparedStatement select) throws SQLException {
        try (ResultSet row = select.executeQuery()) {
            if (!row.next()) {
                return Optional.empty();
            }
            String input = row.getString(8);
            return Optional.of(new DecisionRecord(row.getString(1), row.getString(2),
                    Nanos.toInstant(row.getLong(3)), DecisionRecord.Kind.valueOf(row.getString(4)), row.getString(5),
                    row.getString(6), verdictsFromJson(row.getString(7)),
                    input == null ? null : (ObjectNode) readJson(input)));
        }
    }

    private List<StoredRun> toRuns(Connection connection, PreparedStatement select) throws SQLException {
        List<StoredRun> runs = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                runs.add(toRun(connection, rows));
            }
        }
        return runs;
    }

    private StoredRun toRun(Connection connection, ResultSet row) throws SQLException {
        String runId = row.getString("id");
        String paused = row.getString("paused_state");
        long waitingSince = row.getLong("waiting_since");
        boolean noWait = row.wasNull();
        RunStatus status = RunStatus.fromCode(row.getString("status"));
        int pauseNumber = row.getInt("pause_number");
        Optional<DecisionRecord> decision = status == RunStatus.RUNNING && paused != null
                ? decisionFor(connection, runId, pauseNumber) : latestDecision(connection, runId);
        String unknownJson = row.getString("outcome_unknown");
        List<String> unknown = new ArrayList<>();
        if (unknownJson != null) {
            readJson(unknownJson).forEach(call -> unknown.add(call.asText()));
        }
        List<ChatMessage> transcript = PausedStateCodec.transcriptFromTree(readJson(row.getString("transcript")));
        return new StoredRun(runId, row.getString("agent"), row.getString("initiator"), row.getString("prompt"),
                row.getBoolean("unattended"), status, Nanos.toInstant(row.getLong("created_at")),
                Nanos.toInstant(row.getLong("updated_at")), noWait ? null : Nanos.toInstant(waitingSince),
                paused == null ? null : PausedStateCodec.fromJson(paused), transcript,
                PausedStateCodec.historyFromTree(readJson(row.getString("history"))),
                new RunCounters(row.getInt("iterations"), new TokenUsage(row.getLong("prompt_tokens"),
                        row.getLong("completion_tokens"))),
                row.getString("failure_reason"), row.getString("failure_message"), decision.orElse(null), unknown);
    }

    private static void clearJournal(Connection connection, String runId) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM call_intents WHERE run_id = ?")) {
            delete.setString(1, runId);
            delete.executeUpdate();
        }
    }

    private static void setNullableTime(PreparedStatement statement, int index, Instant time) throws SQLException {
        if (time == null) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, Nanos.of(time));
        }
    }

    private static void requireOneRow(int rows, String runId) {
        if (rows != 1) {
            throw new IllegalStateException("no run has the id \"" + runId + "\"");
        }
    }

    private static String verdictsToJson(List<ApprovalDecision.CallVerdict> verdicts) {
        ArrayNode array = JSON.createArrayNode();
        for (ApprovalDecision.CallVerdict verdict : verdicts) {
            array.addObject().put("index", verdict.index()).put("approved", verdict.approved())
                    .put("reason", verdict.reason());
        }
        return array.toString();
    }

    private static List<ApprovalDecision.CallVerdict> verdictsFromJson(String json) {
        List<ApprovalDecision.CallVerdict> verdicts = new ArrayList<>();
        for (JsonNode item : readJson(json)) {
            JsonNode reason = item.get("reason");
            verdicts.add(new ApprovalDecision.CallVerdict(item.path("index").asInt(),
                    item.path("approved").asBoolean(), reason == null || reason.isNull() ? null : reason.asText()));
        }
        return verdicts;
    }

    private static JsonNode readJson(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new StoreException("a stored run holds damaged JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Intent before, outcome after: each in its own committed transaction, so a crash leaves the truth behind. */
    private final class Journal implements ExecutionJournal {
        @Override
        public void beforeExecute(String runId, String callId, String toolName) {
            database.write("record that call " + callId + " of run " + runId + " starts", connection -> {
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO call_intents (run_id,"
                        + " call_id, tool_name, started_at) VALUES (?, ?, ?, ?)")) {
                    insert.setString(1, runId);
                    insert.setString(2, callId);
                    insert.setString(3, toolName);
                    insert.setLong(4, Nanos.of(database.clock().instant()));
                    insert.executeUpdate();
                }
                return null;
            });
        }

        @Override
        public void afterExecute(String runId, String callId, ToolInvocationObservation.Outcome outcome) {
            database.write("record the outcome of call " + callId + " of run " + runId, connection -> {
                try (PreparedStatement update = connection.prepareStatement("UPDATE call_intents SET outcome = ?,"
                        + " finished_at = ? WHERE run_id = ? AND call_id = ? AND outcome IS NULL")) {
                    update.setString(1, outcome.code());
                    update.setLong(2, Nanos.of(database.clock().instant()));
                    update.setString(3, runId);
                    update.setString(4, callId);
                    update.executeUpdate();
                }
                return null;
            });
        }
    }
}
