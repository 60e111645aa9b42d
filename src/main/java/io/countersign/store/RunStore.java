package io.countersign.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.event.DecisionRecord;
import io.countersign.engine.invocation.ToolInvocationHistory;
import io.countersign.engine.invocation.ToolInvocationObservation;
import io.countersign.engine.port.ChatMessage;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.port.TokenUsage;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.run.PausedState;
import io.countersign.engine.run.PausedStateCodec;
import io.countersign.engine.run.RunCounters;
import io.countersign.engine.run.RunOutcome;
import io.countersign.engine.run.RunStatus;
import io.countersign.engine.run.WaitingRunSummary;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs, their decisions and the execution journal, on SQLite or PostgreSQL.
 *
 * <p>A decision claim is atomic on the run's row: of several deciders in several processes exactly one inserts
 * the pause's decision (unique per pause) and flips the run to running; the others read the winner. On
 * PostgreSQL a claim is one auto-committed statement, one round trip; on SQLite, and on PostgreSQL when that
 * statement claimed nothing, one transaction over the locked row that also reads why. A running run has an
 * owner, the {@link StoreSession} of the process that drives it; its journal
 * intents and its outcome are written only by that owner, so a process taken for stopped cannot act on a run
 * another process took over. Reconciliation looks only at runs whose owner stopped.
 */
public final class RunStore implements RunRepository {
    private static final List<String> RUN_COLUMN_NAMES = List.of("id", "agent", "initiator", "prompt", "unattended",
            "status", "created_at", "updated_at", "waiting_since", "paused_state", "transcript", "history",
            "iterations", "prompt_tokens", "completion_tokens", "failure_reason", "failure_message", "outcome_unknown");
    private static final String RUN_COLUMNS = runColumns("r");
    /** Each run with its latest decision, if any: the claimed one while it runs, else the last one taken. */
    private static final String FROM_RUNS = " FROM runs r LEFT JOIN decisions d ON d.run_id = r.id"
            + " AND d.pause_number = (SELECT MAX(m.pause_number) FROM decisions m WHERE m.run_id = r.id)";
    private static final String SELECT_RUNS = "SELECT " + RUN_COLUMNS + ", " + decisionColumns("d", "last_")
            + FROM_RUNS;
    /** The run a claim locks, with what decides the answer. */
    private static final String SELECT_FOR_CLAIM = "SELECT " + RUN_COLUMNS + ", r.digest, r.pause_number,"
            + " r.claimed_decision FROM runs r WHERE r.id = ?";
    /** The decision taken on a card and the run's latest decision, newest pause first. */
    private static final String SELECT_DECISIONS = "SELECT " + decisionColumns("d", "") + " FROM decisions d"
            + " WHERE d.run_id = ? AND (d.digest = ? OR d.pause_number ="
            + " (SELECT MAX(m.pause_number) FROM decisions m WHERE m.run_id = ?)) ORDER BY d.pause_number DESC";
    private static final String INSERT_DECISION = "INSERT INTO decisions (run_id, pause_number, decided_by,"
            + " decided_at, kind, digest, summary, verdicts, input)";
    /**
     * The PostgreSQL claim (see {@code claimInOneStatement}). It returns the claimed run (without its transcript
     * and history, which its paused state holds) and sends the change's NOTIFY, or returns no row and sends
     * nothing when nothing was claimed.
     */
    private static final String CLAIM_IN_ONE_STATEMENT = "WITH claimed AS (UPDATE runs r SET status = ?,"
            + " claimed_decision = nextval(pg_get_serial_sequence('decisions', 'id')), owner = ?, updated_at = ?,"
            + " queued_at = ? WHERE r.id = ? AND r.status = ? AND r.digest = ? RETURNING " + RUN_COLUMN_NAMES.stream()
            .map(column -> column.equals("transcript") || column.equals("history") ? "NULL AS " + column : "r." + column)
            .collect(Collectors.joining(", ")) + ", r.pause_number, r.claimed_decision),"
            + " decided AS (" + INSERT_DECISION.replace("(run_id,", "(id, run_id,") + " SELECT claimed_decision, id,"
            + " pause_number, ?, ?, ?, ?, ?, ?, ? FROM claimed)"
            + " SELECT c.*, " + ChangeFeed.NOTIFY_CALL + " FROM claimed c";

    private static final int RECENT_CALLS_PAGE = 200;
    /** About the cards a console shows at once; each costs some tens of kilobytes. */
    private static final int DECODED_RUNS = 100;

    private final Database database;
    private final StoreSession session;
    private final ExecutionJournal journal = new Journal();
    /** The paused states decoded last, by run id, the least recently used dropped first. */
    private final Map<String, Decoded> decoded = Collections.synchronizedMap(
            new LinkedHashMap<>(DECODED_RUNS, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Decoded> eldest) {
                    return size() > DECODED_RUNS;
                }
            });

    RunStore(Database database, StoreSession session) {
        this.database = database;
        this.session = session;
    }

    private static String runColumns(String table) {
        return RUN_COLUMN_NAMES.stream().map(column -> table + "." + column).collect(Collectors.joining(", "));
    }

    private static String decisionColumns(String table, String prefix) {
        return Stream.of("run_id", "digest", "decided_by", "decided_at", "kind", "summary", "verdicts", "input")
                .map(column -> table + "." + column + " AS " + prefix + column).collect(Collectors.joining(", "));
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

    /** A running run is driven by this process from the start; a queued one by whichever worker claims it. */
    private void insert(String runId, String agent, String initiator, String prompt, boolean unattended,
                        RunStatus status, Instant at) {
        database.write("record the new run " + runId, ChangeKind.RUN, connection -> {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO runs (id, agent, initiator,"
                    + " prompt, unattended, status, created_at, updated_at, pause_number, transcript, history,"
                    + " iterations, prompt_tokens, completion_tokens, owner, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?,"
                    + " ?, 0, '[]', ?, 0, 0, 0, ?, ?)")) {
                insert.setString(1, runId);
                insert.setString(2, agent);
                insert.setString(3, initiator);
                insert.setString(4, prompt);
                insert.setBoolean(5, unattended);
                insert.setString(6, status.code());
                insert.setLong(7, Nanos.of(at));
                insert.setLong(8, Nanos.of(at));
                insert.setString(9, PausedStateCodec.historyToTree(ToolInvocationHistory.emptyComplete()).toString());
                insert.setString(10, status == RunStatus.RUNNING ? session.id() : null);
                setNullableTime(insert, 11, status == RunStatus.QUEUED ? at : null);
                insert.executeUpdate();
            }
            return null;
        });
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException when this process does not drive the run (it waits, ended, or another process
     *                               took it over); nothing is recorded
     */
    @Override
    public void recordOutcome(RunOutcome outcome, Instant at) {
        String runId = outcome.runId();
        database.write("record where run " + runId + " stands", ChangeKind.RUN, connection -> {
            requireDrivenHere(connection, runId, "its outcome cannot be recorded");
            PausedState state = outcome instanceof RunOutcome.Paused paused ? paused.state() : null;
            RunOutcome.Failed failed = outcome instanceof RunOutcome.Failed f ? f : null;
            try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?, updated_at = ?,"
                    + " waiting_since = ?, pause_number = pause_number + ?, paused_state = ?, digest = ?,"
                    + " waiting_tools = ?, refused_count = ?,"
                    + " transcript = ?, history = ?, iterations = ?, prompt_tokens = ?, completion_tokens = ?,"
                    + " failure_reason = ?, failure_message = ?, claimed_decision = NULL, owner = NULL,"
                    + " queued_at = NULL, worker_id = NULL, lease_expires = NULL WHERE id = ?")) {
                update.setString(1, outcome.status().code());
                update.setLong(2, Nanos.of(at));
                setNullableTime(update, 3, state == null ? null : at);
                update.setInt(4, state == null ? 0 : 1);
                setPausedState(update, 5, state);
                update.setString(9, PausedStateCodec.transcriptToTree(outcome.transcript()).toString());
                update.setString(10, PausedStateCodec.historyToTree(outcome.history()).toString());
                update.setInt(11, outcome.counters().iterations());
                update.setLong(12, outcome.counters().usage().promptTokens());
                update.setLong(13, outcome.counters().usage().completionTokens());
                update.setString(14, failed == null ? null : failed.reasonCode());
                update.setString(15, failed == null ? null : failed.message());
                update.setString(16, runId);
                update.executeUpdate();
            }
            clearJournal(connection, runId);
            return null;
        });
    }

    @Override
    public Optional<StoredRun> find(String runId) {
        return database.read("read run " + runId, connection -> {
            try (PreparedStatement select = connection.prepareStatement(SELECT_RUNS + " WHERE r.id = ?")) {
                select.setString(1, runId);
                return toRuns(select).stream().findFirst();
            }
        });
    }

    @Override
    public List<StoredRun> recent(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        return database.read("list the recent runs", connection -> {
            try (PreparedStatement select = connection.prepareStatement(SELECT_RUNS
                    + " ORDER BY r.updated_at DESC, r.id DESC LIMIT ?")) {
                select.setInt(1, limit);
                return toRuns(select);
            }
        });
    }

    @Override
    public List<StoredRun> waiting() {
        return database.read("list the waiting runs", connection -> {
            try (PreparedStatement select = connection.prepareStatement(SELECT_RUNS + " WHERE r.status IN (?, ?)"
                    + " ORDER BY r.waiting_since, r.id")) {
                select.setString(1, RunStatus.WAITING_FOR_APPROVAL.code());
                select.setString(2, RunStatus.WAITING_FOR_INPUT.code());
                return toRuns(select);
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the summary written beside each paused state (migration V10); a run paused before it is summarized
     * from its paused state, the only one read.
     */
    @Override
    public List<WaitingRunSummary> waitingSummaries() {
        return database.read("list the waiting runs", connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id, status, agent, initiator,"
                    + " prompt, waiting_since, digest, waiting_tools, refused_count,"
                    + " CASE WHEN waiting_tools IS NULL THEN paused_state END AS unsummarized_state"
                    + " FROM runs WHERE status IN (?, ?) ORDER BY waiting_since, id")) {
                select.setString(1, RunStatus.WAITING_FOR_APPROVAL.code());
                select.setString(2, RunStatus.WAITING_FOR_INPUT.code());
                List<WaitingRunSummary> waiting = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        waiting.add(toSummary(rows));
                    }
                }
                return waiting;
            }
        });
    }

    private WaitingRunSummary toSummary(ResultSet row) throws SQLException {
        String runId = row.getString("id");
        RunStatus status = RunStatus.fromCode(row.getString("status"));
        Instant waitingSince = Nanos.toInstant(row.getLong("waiting_since"));
        String unsummarized = row.getString("unsummarized_state");
        if (unsummarized != null) {
            return WaitingRunSummary.of(runId, status, row.getString("agent"), row.getString("initiator"),
                    row.getString("prompt"), waitingSince, pausedState(runId, unsummarized));
        }
        return new WaitingRunSummary(runId, status, row.getString("agent"), row.getString("initiator"),
                row.getString("prompt"), waitingSince, List.of(row.getString("waiting_tools").split("\n")),
                row.getInt("refused_count"), row.getString("digest"));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refusals, in this order: no such run ({@code NotWaiting(null)}); a decision was already taken on this
     * very card, whatever the run did since ({@code AlreadyDecided}); the run still waits for this kind of
     * decision but shows another card ({@code Stale}); someone claimed the run's current pause and it runs on
     * their decision ({@code AlreadyDecided}); otherwise {@code NotWaiting} with the run's status. A refused
     * claim changes nothing and wakes no console.
     */
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
        if (database.dialect() == Dialect.POSTGRESQL) {
            Optional<ClaimResult.Claimed> claimed = claimInOneStatement(decision, claimedStatus);
            if (claimed.isPresent()) {
                return claimed.get();
            }
        }
        return claimUnderLock(decision, claimedStatus);
    }

    /**
     * The PostgreSQL claim in one auto-committed statement, one round trip with its commit: the run is updated
     * only while it waits for this kind of decision on this very card (the update locks the row; one that waited
     * for a competing claim re-checks the row as that claim left it; a decision on the current card would have
     * taken the run out of waiting), the decision is inserted under the id the run now points to, and the NOTIFY
     * tells the other processes. The change counter is left alone: on PostgreSQL only notifications carry
     * changes between processes.
     *
     * @return empty when nothing was claimed; the locked claim then reads why, in a statement of its own that sees
     *         a competing claim this one may have waited for
     */
    private Optional<ClaimResult.Claimed> claimInOneStatement(DecisionRecord decision, RunStatus claimedStatus) {
        String runId = decision.runId();
        boolean queued = claimedStatus == RunStatus.QUEUED;
        return database.statement("commit the decision on run " + runId, ChangeKind.DECISION, Optional::isPresent,
                connection -> {
                    try (PreparedStatement statement = connection.prepareStatement(CLAIM_IN_ONE_STATEMENT)) {
                        int at = 1;
                        statement.setString(at++, claimedStatus.code());
                        statement.setString(at++, queued ? null : session.id());
                        statement.setLong(at++, Nanos.of(decision.decidedAt()));
                        setNullableTime(statement, at++, queued ? decision.decidedAt() : null);
                        statement.setString(at++, runId);
                        statement.setString(at++, expectedStatus(decision).code());
                        statement.setString(at++, decision.digest());
                        at = bindDecision(statement, at, decision);
                        database.changes().bindNotify(statement, at, ChangeKind.DECISION);
                        try (ResultSet row = statement.executeQuery()) {
                            return row.next() ? Optional.of(new ClaimResult.Claimed(toRun(row, decision)))
                                    : Optional.<ClaimResult.Claimed>empty();
                        }
                    }
                });
    }

    /** The claim as one transaction over the run's locked row: SQLite's, and PostgreSQL's refusals. */
    private ClaimResult claimUnderLock(DecisionRecord decision, RunStatus claimedStatus) {
        String runId = decision.runId();
        return database.writeIf("commit the decision on run " + runId, ChangeKind.DECISION,
                ClaimResult.Claimed.class::isInstance, connection -> {
                    StoredRun run;
                    int pauseNumber;
                    boolean claimed;
                    String digest;
                    try (PreparedStatement select = connection.prepareStatement(SELECT_FOR_CLAIM + lockOf("r"))) {
                        select.setString(1, runId);
                        try (ResultSet row = select.executeQuery()) {
                            if (!row.next()) {
                                return new ClaimResult.NotWaiting(null);
                            }
                            run = toRun(row, null);
                            pauseNumber = row.getInt("pause_number");
                            claimed = claimed(row, "claimed_decision");
                            digest = row.getString("digest");
                        }
                    }
                    // A decision on the run's current card would have taken it out of waiting: none exists here.
                    if (run.status() == expectedStatus(decision) && digest.equals(decision.digest())) {
                        return new ClaimResult.Claimed(commitClaim(connection, decision, run, pauseNumber,
                                claimedStatus));
                    }
                    // A statement of its own, after the lock: on PostgreSQL a statement that waited for a lock
                    // still reads other rows as they were when it began, before the competing claim committed.
                    DecisionRecord onCard = null;
                    DecisionRecord latest = null;
                    try (PreparedStatement select = connection.prepareStatement(SELECT_DECISIONS)) {
                        select.setString(1, runId);
                        select.setString(2, decision.digest());
                        select.setString(3, runId);
                        try (ResultSet rows = select.executeQuery()) {
                            while (rows.next()) {
                                DecisionRecord found = decision(rows, "");
                                latest = latest == null ? found : latest;
                                onCard = onCard == null && found.digest().equals(decision.digest()) ? found : onCard;
                            }
                        }
                    }
                    // Not claimable, so a refusal: a run waiting on this card was claimed above.
                    return refusal(decision, run.status(), digest, claimed, onCard, latest).orElseThrow();
                });
    }

    private static RunStatus expectedStatus(DecisionRecord decision) {
        return decision.kind() == DecisionRecord.Kind.APPROVAL
                ? RunStatus.WAITING_FOR_APPROVAL : RunStatus.WAITING_FOR_INPUT;
    }

    /**
     * Why a claim is refused, from one consistent view of the run: its status, card digest, whether it runs on a
     * claimed decision, the decision taken on the claimed card and its latest decision. Empty when it may be
     * claimed.
     */
    private static Optional<ClaimResult> refusal(DecisionRecord decision, RunStatus status, String digest,
                                                 boolean claimed, DecisionRecord onCard, DecisionRecord latest) {
        if (onCard != null) {
            return Optional.of(new ClaimResult.AlreadyDecided(onCard));
        }
        if (status != expectedStatus(decision)) {
            boolean carriesOut = claimed && latest != null
                    && (status == RunStatus.RUNNING || status == RunStatus.QUEUED);
            return Optional.of(carriesOut ? new ClaimResult.AlreadyDecided(latest)
                    : new ClaimResult.NotWaiting(status));
        }
        if (!digest.equals(decision.digest())) {
            return Optional.of(new ClaimResult.Stale(digest));
        }
        return Optional.empty();
    }

    private static boolean claimed(ResultSet row, String column) throws SQLException {
        row.getLong(column);
        return !row.wasNull();
    }

    /** Binds the decision's own values (who, when, kind, card, summary, verdicts, input) from {@code first} on. */
    private static int bindDecision(PreparedStatement statement, int first, DecisionRecord decision)
            throws SQLException {
        statement.setString(first, decision.decidedBy());
        statement.setLong(first + 1, Nanos.of(decision.decidedAt()));
        statement.setString(first + 2, decision.kind().name());
        statement.setString(first + 3, decision.digest());
        statement.setString(first + 4, decision.summary());
        statement.setString(first + 5, verdictsToJson(decision.verdicts()));
        statement.setString(first + 6, decision.input() == null ? null : decision.input().toString());
        return first + 7;
    }

    /** Commits the decision on the run's current pause and returns the run as it now stands. */
    private StoredRun commitClaim(Connection connection, DecisionRecord decision, StoredRun run, int pauseNumber,
                                  RunStatus claimedStatus) throws SQLException {
        long decisionId;
        try (PreparedStatement insert = connection.prepareStatement(INSERT_DECISION + " VALUES (?, ?, ?, ?, ?, ?, ?,"
                + " ?, ?)", new String[] {"id"})) {
            insert.setString(1, decision.runId());
            insert.setInt(2, pauseNumber);
            bindDecision(insert, 3, decision);
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                keys.next();
                decisionId = keys.getLong(1);
            }
        }
        boolean queued = claimedStatus == RunStatus.QUEUED;
        try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?,"
                + " claimed_decision = ?, owner = ?, updated_at = ?, queued_at = ? WHERE id = ?")) {
            update.setString(1, claimedStatus.code());
            update.setLong(2, decisionId);
            update.setString(3, queued ? null : session.id());
            update.setLong(4, Nanos.of(decision.decidedAt()));
            setNullableTime(update, 5, queued ? decision.decidedAt() : null);
            update.setString(6, decision.runId());
            update.executeUpdate();
        }
        return new StoredRun(run.runId(), run.agent(), run.initiator(), run.prompt(), run.unattended(),
                claimedStatus, run.createdAt(), decision.decidedAt(), run.waitingSince(), run.pausedState(),
                run.transcript(), run.history(), run.counters(), run.failureReason(), run.failureMessage(), decision,
                run.unknownOutcomeCalls());
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException when this process does not drive a claimed decision of the run; nothing
     *                               changes
     */
    @Override
    public void release(PausedState state, Instant at) {
        String runId = state.runId();
        database.write("put run " + runId + " back to waiting", ChangeKind.RUN, connection -> {
            Row row = requireDrivenHere(connection, runId, "it cannot be put back to waiting");
            if (!row.claimed()) {
                throw new IllegalStateException("run " + runId + " was not claimed for a decision, so it cannot be"
                        + " put back to waiting; nothing changed");
            }
            putBackToWaiting(connection, state, row.pauseNumber(), at);
            return null;
        });
    }

    /** The run waits again with the given state; the decision of its pause is gone, since it did not go through. */
    private static void putBackToWaiting(Connection connection, PausedState state, int pauseNumber, Instant at)
            throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?, updated_at = ?,"
                + " paused_state = ?, digest = ?, waiting_tools = ?, refused_count = ?, claimed_decision = NULL,"
                + " outcome_unknown = NULL, owner = NULL, queued_at = NULL, worker_id = NULL, lease_expires = NULL"
                + " WHERE id = ?")) {
            update.setString(1, state.status().code());
            update.setLong(2, Nanos.of(at));
            setPausedState(update, 3, state);
            update.setString(7, state.runId());
            update.executeUpdate();
        }
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM decisions WHERE run_id = ?"
                + " AND pause_number = ?")) {
            delete.setString(1, state.runId());
            delete.setInt(2, pauseNumber);
            delete.executeUpdate();
        }
        clearJournal(connection, state.runId());
    }

    @Override
    public ExecutionJournal journal() {
        return journal;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Only runs whose owner stopped are looked at: another live process may be driving a running run right
     * now. Each orphan is taken over in one transaction that checks it still has the owner it was found with, so
     * of several processes starting at once exactly one carries it on. A run whose stretch had no decision (its
     * first) has no state to resume from and fails as {@code interrupted}. A run with calls in its journal is
     * flagged: those with an intent and no outcome, or, when every call finished, all of them (their results
     * were lost with the process, and running them again would repeat them).
     */
    @Override
    public List<StoredRun> reconcile(Instant at) {
        // Runs first, then the registrations: every owner read here registered before it wrote its run, so an
        // owner without a registration has stopped. Runs started after this read are not looked at.
        List<Orphan> running = database.read("list the runs left running", connection -> {
            List<Orphan> runs = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT id, owner FROM runs"
                    + " WHERE status = ? AND outcome_unknown IS NULL AND worker_id IS NULL"
                    + " ORDER BY updated_at, id")) {
                select.setString(1, RunStatus.RUNNING.code());
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        runs.add(new Orphan(rows.getString(1), rows.getString(2)));
                    }
                }
            }
            return runs;
        });
        Set<String> live = session.live();
        List<StoredRun> toResume = new ArrayList<>();
        for (Orphan orphan : running) {
            if (orphan.owner() == null || !live.contains(orphan.owner())) {
                if (takeOver(orphan, at) == TakeOver.RESUME) {
                    find(orphan.runId()).ifPresent(toResume::add);
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
                    Optional<Row> current = lockedRow(connection, runId);
                    if (current.isEmpty() || current.get().status() != RunStatus.RUNNING
                            || current.get().outcomeUnknown() != null
                            || !Objects.equals(current.get().owner(), orphan.owner())) {
                        return TakeOver.UNTOUCHED;
                    }
                    List<String> started = journalledCalls(connection, runId);
                    if (!current.get().claimed()) {
                        failInterrupted(connection, runId, started, at);
                        return TakeOver.SETTLED;
                    }
                    if (!started.isEmpty()) {
                        flagOutcomeUnknown(connection, runId, started, at);
                        return TakeOver.SETTLED;
                    }
                    try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET owner = ?,"
                            + " updated_at = ? WHERE id = ?")) {
                        update.setString(1, session.id());
                        update.setLong(2, Nanos.of(at));
                        update.setString(3, runId);
                        update.executeUpdate();
                    }
                    return TakeOver.RESUME;
                });
    }

    private static void failInterrupted(Connection connection, String runId, List<String> started, Instant at)
            throws SQLException {
        String message = "the process running this run stopped before the run paused or finished"
                + (started.isEmpty() ? "" : "; the outcome of " + String.join(", ", started) + " is unknown");
        try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?, updated_at = ?,"
                + " failure_reason = 'interrupted', failure_message = ?, owner = NULL WHERE id = ?")) {
            update.setString(1, RunStatus.FAILED.code());
            update.setLong(2, Nanos.of(at));
            update.setString(3, message);
            update.setString(4, runId);
            update.executeUpdate();
        }
        clearJournal(connection, runId);
    }

    private static void flagOutcomeUnknown(Connection connection, String runId, List<String> calls, Instant at)
            throws SQLException {
        ArrayNode json = JsonNodeFactory.instance.arrayNode();
        calls.forEach(json::add);
        try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET outcome_unknown = ?,"
                + " updated_at = ?, owner = NULL WHERE id = ?")) {
            update.setString(1, json.toString());
            update.setLong(2, Nanos.of(at));
            update.setString(3, runId);
            update.executeUpdate();
        }
    }

    /** The calls whose outcome is unknown: those begun and never finished, else all (their results are lost). */
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
            // The worker's process becomes the run's owner, so its journal and outcome writes are its own.
            try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?, worker_id = ?,"
                    + " lease_expires = ?, updated_at = ?, queued_at = NULL, owner = ? WHERE id = (SELECT id FROM"
                    // The literal status lets both databases take the queue's partial index.
                    + " runs WHERE status = '" + RunStatus.QUEUED.code() + "' ORDER BY queued_at, id LIMIT 1"
                    + skipLocked + ") AND status = ? RETURNING id")) {
                update.setString(1, RunStatus.RUNNING.code());
                update.setString(2, workerId);
                update.setLong(3, Nanos.of(leaseExpires));
                update.setLong(4, Nanos.of(at));
                update.setString(5, session.id());
                update.setString(6, RunStatus.QUEUED.code());
                try (ResultSet claimed = update.executeQuery()) {
                    if (!claimed.next()) {
                        return Optional.<StoredRun>empty();
                    }
                    runId = claimed.getString(1);
                }
            }
            try (PreparedStatement select = connection.prepareStatement(SELECT_RUNS + " WHERE r.id = ?")) {
                select.setString(1, runId);
                return toRuns(select).stream().findFirst();
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
                        + " queued_at = ?, updated_at = ?, worker_id = NULL, lease_expires = NULL, owner = NULL WHERE id = ?")) {
                    update.setString(1, RunStatus.QUEUED.code());
                    update.setLong(2, Nanos.of(at));
                    update.setLong(3, Nanos.of(at));
                    update.setString(4, runId);
                    update.executeUpdate();
                }
            } else {
                try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET outcome_unknown = ?,"
                        + " updated_at = ?, worker_id = NULL, lease_expires = NULL, owner = NULL WHERE id = ?")) {
                    ArrayNode calls = JsonNodeFactory.instance.arrayNode();
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

    @Override
    public StoredRun settleUnknownOutcome(String runId, boolean retry, String settledBy, Instant at) {
        Objects.requireNonNull(settledBy, "settledBy");
        database.write("settle the unknown outcome of run " + runId, ChangeKind.RUN, connection -> {
            Row row = lockedRow(connection, runId).orElseThrow(() -> new IllegalArgumentException(
                    "no run has the id \"" + runId + "\""));
            if (row.outcomeUnknown() == null) {
                throw new IllegalStateException("run " + runId + " has no call whose outcome is unknown");
            }
            if (retry) {
                putBackToWaiting(connection, PausedStateCodec.fromJson(row.pausedState()), row.pauseNumber(), at);
                return null;
            }
            try (PreparedStatement update = connection.prepareStatement("UPDATE runs SET status = ?,"
                    + " updated_at = ?, failure_reason = 'outcome_unknown', failure_message = ?,"
                    + " claimed_decision = NULL, outcome_unknown = NULL, owner = NULL WHERE id = ?")) {
                update.setString(1, RunStatus.FAILED.code());
                update.setLong(2, Nanos.of(at));
                update.setString(3, settledBy + " marked the run failed: the outcome of "
                        + String.join(", ", unknownCalls(row.outcomeUnknown())) + " is unknown after a restart");
                update.setString(4, runId);
                update.executeUpdate();
            }
            clearJournal(connection, runId);
            return null;
        });
        return find(runId).orElseThrow();
    }

    /** The run's row, locked for the rest of the transaction. */
    private Optional<Row> lockedRow(Connection connection, String runId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT status, digest, pause_number,"
                + " claimed_decision, owner, outcome_unknown, paused_state FROM runs r WHERE id = ?" + lockOf("r"))) {
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                row.getLong(4);
                boolean claimed = !row.wasNull();
                return Optional.of(new Row(RunStatus.fromCode(row.getString(1)), row.getString(2), row.getInt(3),
                        claimed, row.getString(5), row.getString(6), row.getString(7)));
            }
        }
    }

    /** Locks the rows read from the table of the alias for the rest of the transaction; SQLite's IMMEDIATE already has. */
    private String lockOf(String alias) {
        return database.dialect() == Dialect.POSTGRESQL ? " FOR UPDATE OF " + alias : "";
    }

    private record Row(RunStatus status, String digest, int pauseNumber, boolean claimed, String owner,
                       String outcomeUnknown, String pausedState) {
    }

    /**
     * The run's locked row, when this process drives it.
     *
     * @throws IllegalArgumentException when there is no such run
     * @throws IllegalStateException    when the run is not running under this process
     */
    private Row requireDrivenHere(Connection connection, String runId, String consequence) throws SQLException {
        Row row = lockedRow(connection, runId).orElseThrow(() -> new IllegalArgumentException(
                "no run has the id \"" + runId + "\""));
        if (row.status() != RunStatus.RUNNING || !session.id().equals(row.owner())) {
            throw new IllegalStateException("run " + runId + " is not driven by this process (it is "
                    + row.status().code() + (row.status() == RunStatus.RUNNING
                    ? ", taken over by another process that judged this one stopped" : "") + "); " + consequence);
        }
        return row;
    }

    /** The decision in the columns of the prefix, or {@code null} when the join found none. */
    private static DecisionRecord decision(ResultSet row, String prefix) throws SQLException {
        String runId = row.getString(prefix + "run_id");
        if (runId == null) {
            return null;
        }
        String input = row.getString(prefix + "input");
        return new DecisionRecord(runId, row.getString(prefix + "decided_by"),
                Nanos.toInstant(row.getLong(prefix + "decided_at")),
                DecisionRecord.Kind.valueOf(row.getString(prefix + "kind")), row.getString(prefix + "digest"),
                row.getString(prefix + "summary"), verdictsFromJson(row.getString(prefix + "verdicts")),
                input == null ? null : (ObjectNode) readJson(input));
    }

    private List<StoredRun> toRuns(PreparedStatement select) throws SQLException {
        List<StoredRun> runs = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                runs.add(toRun(rows, decision(rows, "last_")));
            }
        }
        return runs;
    }

    private StoredRun toRun(ResultSet row, DecisionRecord lastDecision) throws SQLException {
        String runId = row.getString("id");
        String paused = row.getString("paused_state");
        long waitingSince = row.getLong("waiting_since");
        boolean noWait = row.wasNull();
        String unknown = row.getString("outcome_unknown");
        PausedState state = paused == null ? null : pausedState(runId, paused);
        // A paused state holds the run's transcript and history as recorded with it: no need to read them twice.
        List<ChatMessage> transcript = state != null ? state.transcript()
                : PausedStateCodec.transcriptFromTree(readJson(row.getString("transcript")));
        ToolInvocationHistory history = state != null ? state.history()
                : PausedStateCodec.historyFromTree(readJson(row.getString("history")));
        return new StoredRun(runId, row.getString("agent"), row.getString("initiator"),
                row.getString("prompt"), row.getBoolean("unattended"), RunStatus.fromCode(row.getString("status")),
                Nanos.toInstant(row.getLong("created_at")), Nanos.toInstant(row.getLong("updated_at")),
                noWait ? null : Nanos.toInstant(waitingSince), state, transcript, history,
                new RunCounters(row.getInt("iterations"), new TokenUsage(row.getLong("prompt_tokens"),
                        row.getLong("completion_tokens"))),
                row.getString("failure_reason"), row.getString("failure_message"), lastDecision,
                unknown == null ? List.of() : unknownCalls(unknown));
    }

    /**
     * The paused state stored as {@code json}: the one decoded last for the run when it was decoded from the very
     * same text, else decoded now. A decision reads the card and then claims it (see {@code DefaultRunService}), so
     * the claim finds the state of the card it was just shown.
     */
    private PausedState pausedState(String runId, String json) {
        Decoded last = decoded.get(runId);
        if (last != null && last.json().equals(json)) {
            return last.state();
        }
        PausedState state = PausedStateCodec.fromJson(json);
        decoded.put(runId, new Decoded(json, state));
        return state;
    }

    /** A paused state and the stored text it was decoded from. */
    private record Decoded(String json, PausedState state) {
    }

    private static List<String> unknownCalls(String json) {
        List<String> calls = new ArrayList<>();
        readJson(json).forEach(call -> calls.add(call.asText()));
        return calls;
    }

    private static void clearJournal(Connection connection, String runId) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM call_intents WHERE run_id = ?")) {
            delete.setString(1, runId);
            delete.executeUpdate();
        }
    }

    /**
     * Sets the paused state and what the inbox reads of it without decoding it, from {@code index} on: the state,
     * its digest, the tools it waits on (one per line) and its count of refused calls; all {@code null} for none.
     */
    private static void setPausedState(PreparedStatement statement, int index, PausedState state)
            throws SQLException {
        statement.setString(index, state == null ? null : PausedStateCodec.toJson(state));
        statement.setString(index + 1, state == null ? null : state.digest());
        statement.setString(index + 2, state == null ? null : String.join("\n", state.waitingToolNames()));
        if (state == null) {
            statement.setNull(index + 3, Types.INTEGER);
        } else {
            statement.setInt(index + 3, state.refused().size());
        }
    }

    private static void setNullableTime(PreparedStatement statement, int index, Instant time) throws SQLException {
        if (time == null) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, Nanos.of(time));
        }
    }

    private static String verdictsToJson(List<ApprovalDecision.CallVerdict> verdicts) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
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
            return Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new StoreException("a stored run holds damaged JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Intent before, outcome after, each in its own committed transaction, so that a crash leaves the truth
     * behind. An intent is written only while this process drives the run: the check and the insert share the
     * run's lock with a take-over, so no call starts on a run another process has taken.
     */
    private final class Journal implements ExecutionJournal {
        @Override
        public void beforeExecute(String runId, String callId, String toolName) {
            database.write("record that call " + callId + " of run " + runId + " starts", connection -> {
                requireDrivenHere(connection, runId, "call " + callId + " was not started");
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
