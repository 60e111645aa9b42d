package io.countersign.store;

import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.port.RunClaims.ClaimResult;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Decision claims, atomic on the run's row: of several deciders in several processes exactly one inserts the
 * pause's decision (unique per pause) and flips the run out of waiting; the others read the winner. On PostgreSQL
 * a claim is one statement, in a transaction with its audit chain entry, and when it claimed nothing one more that
 * reads why without a lock; on SQLite, and on PostgreSQL when the run may be claimed after all, one transaction over
 * the locked row that also reads why.
 */
record DecisionClaims(Database database, StoreSession session, RunRows rows) {
    /** A decision's own columns, and the parameters {@link RunRows#bindDecision} binds to them. */
    private static final String DECISION_COLUMNS = "decided_by, decided_at, kind, digest, summary, verdicts, input,"
            + " event_recorded, written_at_schema";
    private static final String DECISION_VALUES = ":decidedBy, :decidedAt, :kind, :digest, :summary, :verdicts,"
            + " :input, :eventRecorded, " + Migrations.SCHEMA;
    /** The insert of a decision under lock, returning the stored row its audit chain entry hashes. */
    private static final String INSERT_DECISION = "INSERT INTO decisions (run_id, pause_number, " + DECISION_COLUMNS
            + ") VALUES (:runId, :pauseNumber, " + DECISION_VALUES + ") RETURNING "
            + String.join(", ", AuditRows.DECISION_COLUMNS);
    /** The prefix of the inserted decision's columns the claim's statement returns, for its audit chain entry. */
    private static final String STORED_DECISION = "decision_";
    /** The condition a deadline's fallback adds to its claim: the deadline passed when it decided. */
    private static final String DUE = "r.deadline <= :decidedAt";
    /**
     * The texts of the PostgreSQL claim (see {@code claimInOneStatement}), by {@link #claimKey}: whether it is a
     * deadline's fallback, which holds only while the run's deadline has passed, and how many intents it writes.
     */
    private static final Map<Integer, ClaimStatement> CLAIMS_IN_ONE_STATEMENT = new ConcurrentHashMap<>();
    /** The prefix of the decisions' columns {@link #SELECT_REFUSAL} reads. */
    private static final String REFUSAL_DECISION = "d_";
    /**
     * What a refusal says, in one statement: the run's status, card and claimed decision, each row with one of its
     * decisions, the one taken on the card and its latest, newest pause first (none: one row without a decision).
     */
    private static final String SELECT_REFUSAL = "SELECT r.status, r.outcome_unknown, r.digest AS run_digest,"
            + " r.claimed_decision, " + RunRows.decisionColumns("d", REFUSAL_DECISION) + " FROM runs r"
            + " LEFT JOIN decisions d ON d.run_id = r.id AND (d.digest = :digest OR d.pause_number ="
            + " (SELECT MAX(m.pause_number) FROM decisions m WHERE m.run_id = r.id)) WHERE r.id = :runId"
            + " ORDER BY d.pause_number DESC";

    private static int claimKey(boolean due, int intents) {
        return intents * 2 + (due ? 1 : 0);
    }

    /**
     * The PostgreSQL claim's statement around the writes that follow a claim (see {@link #with}): its own CTEs
     * before theirs, and what it selects before and after what they return.
     */
    private record ClaimStatement(String claim, String select, String rest) {
        /** The statement with the writes, made only once the run was claimed, in their order after the claim. */
        String with(WritesInOneStatement writes) {
            return claim + ", " + writes.ctes("claimed") + select + writes.inTurn() + rest;
        }
    }

    /**
     * The PostgreSQL claim's statement, with a further condition on the run {@code r} and the intents of its
     * {@code intents} calls (each {@code :callIdN}, {@code :toolNameN}). It inserts the decision, the intents and
     * the card's webhook event, and returns the claimed run (without its transcript and history, which its paused
     * state holds) with the decision as stored and what the writes after it return, and sends the change's NOTIFY;
     * or returns no row and writes and sends nothing when nothing was claimed.
     */
    private static ClaimStatement claimInOneStatement(String condition, int intents) {
        String intended = intents == 0 ? "" : " intended AS (INSERT INTO call_intents (run_id, call_id, tool_name,"
                + " started_at) SELECT c.id, v.column1, v.column2, :startedAt FROM claimed c CROSS JOIN (VALUES "
                + IntStream.range(0, intents).mapToObj(n -> "(:callId" + n + ", :toolName" + n + ", " + n + ")")
                .collect(Collectors.joining(", ")) + ") AS v ORDER BY v.column3),";
        return new ClaimStatement("WITH claimed AS (UPDATE runs r SET status = :claimedStatus,"
                + " claimed_decision = nextval(pg_get_serial_sequence('decisions', 'id')), owner = :owner,"
                + " updated_at = :decidedAt, queued_at = :queuedAt, epoch = r.epoch + 1"
                + " WHERE r.id = :runId AND r.status = :expectedStatus AND r.digest = :digest" + condition
                + " RETURNING " + RunRows.RUN_COLUMN_NAMES.stream().map(column -> column.equals("transcript")
                || column.equals("history") ? "NULL AS " + column : "r." + column).collect(Collectors.joining(", "))
                + ", r.pause_number, r.claimed_decision, r.waiting_tools),"
                + " decided AS (INSERT INTO decisions (id, run_id, pause_number, " + DECISION_COLUMNS + ")"
                + " SELECT claimed_decision, id, pause_number, " + DECISION_VALUES + " FROM claimed"
                + " RETURNING " + String.join(", ", AuditRows.DECISION_COLUMNS) + ")," + intended
                + " queued AS (" + OutboxRows.insertFrom("claimed") + ")",
                " SELECT c.*, " + AuditRows.DECISION_COLUMNS.stream().map(column -> "d." + column + " AS "
                + STORED_DECISION + column).collect(Collectors.joining(", ")) + ", ",
                ", " + ChangeFeed.NOTIFY_CALL + " FROM claimed c CROSS JOIN decided d");
    }

    /**
     * Claims a waiting run for the decision; the run goes to {@code claimedStatus}: running under this process, or
     * queued with its decision for a worker. The start is committed with the claim. See {@link RunStore#claim} for
     * the refusals.
     */
    ClaimResult claim(Decision decision, RunStatus claimedStatus, DecisionStart start) {
        if (database.dialect() == Dialect.POSTGRESQL) {
            Optional<ClaimResult.Claimed> claimed = claimInOneStatement(decision, claimedStatus, start);
            if (claimed.isPresent()) {
                return claimed.get();
            }
            Optional<ClaimResult> refused = refusalWithoutLock(decision);
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        return claimUnderLock(decision, claimedStatus, start);
    }

    /**
     * Why PostgreSQL's claim statement claimed nothing, read in one statement that locks no row: the statement's
     * update waited for a competing claim's lock and saw it committed, and one statement reads one snapshot, as
     * consistent as the locked read. Workers take queued runs passing over locked rows (SKIP LOCKED), so a loser's
     * lock on a run just queued for a worker made every worker pass it over until the next change woke them: 17 ms
     * of the hand-off's median and more (traced, 2 workers, paced). Empty when the run may be claimed after all (its
     * card waits again, or a deadline's fallback found the deadline moved): the locked path decides then.
     */
    private Optional<ClaimResult> refusalWithoutLock(Decision decision) {
        return database.read("read why the decision on run " + decision.runId() + " was not taken",
                connection -> readRefusal(connection, decision));
    }

    /**
     * Why a claim of the decision is refused, from one consistent view of the run ({@link #SELECT_REFUSAL}); empty
     * when it may be claimed.
     */
    private static Optional<ClaimResult> readRefusal(Connection connection, Decision decision) throws SQLException {
        String runId = decision.runId();
        try (NamedStatement select = NamedStatement.prepare(connection, SELECT_REFUSAL)) {
            try (ResultSet found = select.set("runId", runId).set("digest", decision.digest()).executeQuery()) {
                if (!found.next()) {
                    return Optional.of(new DecisionResult.NotWaiting(runId, null));
                }
                RunStatus status = RunRows.status(found.getString("status"), found.getString("outcome_unknown"));
                String digest = found.getString("run_digest");
                found.getLong("claimed_decision");
                boolean claimed = !found.wasNull();
                Decision onCard = null;
                Decision latest = null;
                do {
                    Decision taken = RunRows.decision(found, REFUSAL_DECISION);
                    if (taken != null) {
                        latest = latest == null ? taken : latest;
                        onCard = onCard == null && taken.digest().equals(decision.digest()) ? taken : onCard;
                    }
                } while (found.next());
                return refusal(decision, status, digest, claimed, onCard, latest);
            }
        }
    }

    /**
     * The PostgreSQL claim in one statement: the run is updated only while it waits for this kind of decision on
     * this very card (the update locks the row; one that waited for a competing claim re-checks the row as that
     * claim left it; a decision on the current card would have taken the run out of waiting), the decision is
     * inserted under the id the run now points to with the intents of its calls and the card's webhook event, and
     * the NOTIFY tells the other processes once committed. The change counter is left alone: on PostgreSQL only
     * notifications carry changes between processes. Once the run is claimed, the same statement inserts the
     * decision's event with its counts and names and takes the audit chain's head for the event's and the
     * decision's entries, in that order, the order every writer locks them in. It returns the decision as stored,
     * which its entry hashes without reading it back, and the head. The entries follow, with the decision's latency
     * rows, in a second statement: one WAL flush, three round trips with the commit.
     *
     * @return empty when nothing was claimed; {@link #refusalWithoutLock} then reads why, in a statement of its own
     *         that sees a competing claim this one may have waited for
     */
    private Optional<ClaimResult.Claimed> claimInOneStatement(Decision decision, RunStatus claimedStatus,
                                                              DecisionStart start) {
        String runId = decision.runId();
        // The statement's condition is the card waiting: the table must let the claim move a run from there.
        RunLifecycle.table().next(runId, RunLifecycle.State.of(expectedStatus(decision), false, false),
                event(decision, claimedStatus));
        boolean queued = claimedStatus == RunStatus.QUEUED;
        String what = "commit the decision on run " + runId;
        List<ExecutionJournal.Intent> intents = start.intents();
        boolean due = byDeadline(decision);
        WritesInOneStatement afterClaim = new WritesInOneStatement();
        if (start.decisionEvent() != null) {
            EventStore.insertUnchained(afterClaim, start.decisionEvent());
        }
        WritesInOneStatement.Reader<AuditChain.Head> head = AuditChain.takeHead(afterClaim, entries(start));
        String sql = CLAIMS_IN_ONE_STATEMENT.computeIfAbsent(claimKey(due, intents.size()),
                key -> claimInOneStatement(due ? " AND " + DUE : "", intents.size())).with(afterClaim);
        // Rolled back when it claimed nothing: its update may have waited for a competing claim and then locked the
        // run as that claim left it, and a worker passes over a locked run just queued for it until the next change.
        Optional<ClaimResult.Claimed> claimed = database.writeIfPresent(what, connection -> {
            try (NamedStatement statement = NamedStatement.prepare(connection, sql)) {
                for (int n = 0; n < intents.size(); n++) {
                    statement.set("callId" + n, intents.get(n).callId()).set("toolName" + n, intents.get(n).toolName());
                }
                if (!intents.isEmpty()) {
                    statement.set("startedAt", database.clock().instant());
                }
                OutboxRows.bindDecided(statement, decision, start);
                statement.set("claimedStatus", claimedStatus.code())
                        .set("owner", queued ? null : session.id())
                        .set("queuedAt", queued ? decision.decidedAt() : null)
                        .set("runId", runId)
                        .set("expectedStatus", expectedStatus(decision).code());
                bindDecision(statement, decision, start);
                database.changes().bindNotify(statement, ChangeKind.DECISION);
                statement.bindWrites(afterClaim);
                try (ResultSet row = statement.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    StoredRun run = rows.run(row, decision);
                    chain(connection, run, start, new AuditChain.Row(Long.toString(row.getLong("claimed_decision")),
                            new AuditRows().stored("decisions", row, STORED_DECISION)), head.read(row));
                    return Optional.of(new ClaimResult.Claimed(run));
                }
            }
        });
        if (claimed.isPresent()) {
            database.changes().committed(ChangeKind.DECISION);
        }
        return claimed;
    }

    /** Binds the decision's values, and whether its event is recorded with it. */
    private static void bindDecision(NamedStatement statement, Decision decision, DecisionStart start)
            throws SQLException {
        RunRows.bindDecision(statement, decision);
        statement.set("eventRecorded", start.decisionEvent() != null);
    }

    /**
     * Writes what the claimed run's driver writes ahead of its calls, in the claim's transaction, and chains the
     * decision (the stored row {@code decision}) with its event: the intents, the event (whose insert takes the rows
     * of counts), the chain's head, taken once for both entries, then the decision's latency under the head, and the
     * card's webhook event. On PostgreSQL the event, its counts and the head are one statement, and the entries
     * with the latency a second (see {@link #chain}).
     */
    private void writeStart(Connection connection, StoredRun claimed, DecisionStart start, AuditChain.Row decision)
            throws SQLException {
        GovernanceEvent event = start.decisionEvent();
        if (database.dialect() == Dialect.POSTGRESQL) {
            writeIntents(connection, claimed, start);
            WritesInOneStatement writes = new WritesInOneStatement();
            if (event != null) {
                EventStore.insertUnchained(writes, event);
            }
            chain(connection, claimed, start, decision,
                    writes.execute(connection, AuditChain.takeHead(writes, entries(start))));
        } else {
            if (event != null) {
                EventStore.insertUnchained(connection, List.of(event));
            }
            writeIntents(connection, claimed, start);
            AuditChain.append(connection, database.clock().instant(), entries(start, decision));
            DecisionLatencies.decided(connection, claimed);
        }
        OutboxRows.decided(connection, claimed.lastDecision(), start);
    }

    private void writeIntents(Connection connection, StoredRun claimed, DecisionStart start) throws SQLException {
        if (!start.intents().isEmpty()) {
            CallJournal.writeIntents(connection, database, session, claimed.lease(), start.intents(),
                    "its calls were not started");
        }
    }

    /** How many chain entries a claim appends: its event's, if it has one, and the decision's. */
    private static int entries(DecisionStart start) {
        return start.decisionEvent() == null ? 1 : 2;
    }

    /** The chain entries of a claim: its event's, if it has one, then the decision's (the stored row). */
    private static List<AuditChain.Pending> entries(DecisionStart start, AuditChain.Row decision) {
        List<AuditChain.Pending> entries = new ArrayList<>(2);
        if (start.decisionEvent() != null) {
            entries.add(AuditChain.eventsEntry(List.of(start.decisionEvent())));
        }
        entries.add(AuditChain.Pending.of(AuditChain.Kind.DECISION, List.of(decision), null, null));
        return entries;
    }

    /**
     * On PostgreSQL, appends the claim's chain entries under the head it took, with the decision's latency rows,
     * which PostgreSQL adds to itself, in the same statement: nothing is read back.
     */
    private void chain(Connection connection, StoredRun claimed, DecisionStart start, AuditChain.Row decision,
                       AuditChain.Head head) throws SQLException {
        WritesInOneStatement latency = new WritesInOneStatement();
        DecisionLatencies.decided(latency, claimed);
        AuditChain.append(connection, database.clock().instant(), entries(start, decision), head, latency);
    }

    /**
     * Commits the start of a decision claimed before, for the lease's driver; see {@link RunStore#begin}. The
     * event is recorded unless the decision has it already (a process that stopped after its claim recorded it).
     */
    void begin(RunLease lease, DecisionStart start) {
        String runId = lease.runId();
        database.write("start carrying out the decision on run " + runId, connection -> {
            try (NamedStatement touch = NamedStatement.prepare(connection, "UPDATE runs AS r"
                    + " SET updated_at = r.updated_at WHERE r.id = :runId AND " + LockedRun.DRIVEN)) {
                if (LockedRun.bindDriven(touch.set("runId", runId), session, lease).executeUpdate() == 0) {
                    throw LockedRun.refusal(session, connection, database.dialect(), lease,
                            "its decision is not carried out");
                }
            }
            if (start.decisionEvent() != null && !EventStore.decisionEventRecordedBefore(connection, runId)) {
                EventStore.insert(connection, database.clock().instant(), List.of(start.decisionEvent()));
            }
            CallJournal.writeIntents(connection, database, session, lease, start.intents(),
                    "its calls were not started");
            return null;
        });
    }

    /** The claim as one transaction over the run's locked row: SQLite's, and PostgreSQL's refusals. */
    private ClaimResult claimUnderLock(Decision decision, RunStatus claimedStatus, DecisionStart start) {
        String runId = decision.runId();
        return database.writeIf("commit the decision on run " + runId, ChangeKind.DECISION,
                ClaimResult.Claimed.class::isInstance, connection -> {
                    StoredRun run;
                    int pauseNumber;
                    boolean claimed;
                    String digest;
                    boolean due;
                    try (NamedStatement select = NamedStatement.prepare(connection, "SELECT " + RunRows.RUN_COLUMNS
                            + ", r.digest, r.pause_number, r.claimed_decision, " + (byDeadline(decision)
                            ? "CASE WHEN " + DUE + " THEN 1 ELSE 0 END" : "1") + " AS due"
                            + " FROM runs r WHERE r.id = :runId"
                            + database.dialect().lockRowsOf("r"))) {
                        if (byDeadline(decision)) {
                            select.set("decidedAt", decision.decidedAt());
                        }
                        try (ResultSet row = select.set("runId", runId).executeQuery()) {
                            if (!row.next()) {
                                return new DecisionResult.NotWaiting(runId, null);
                            }
                            run = rows.run(row, null);
                            pauseNumber = row.getInt("pause_number");
                            row.getLong("claimed_decision");
                            claimed = !row.wasNull();
                            digest = row.getString("digest");
                            due = row.getInt("due") == 1;
                        }
                    }
                    // A decision on the run's current card would have taken it out of waiting: none exists here.
                    boolean claimable = run.status() == expectedStatus(decision) && digest.equals(decision.digest())
                            && RunLifecycle.table().allows(RunLifecycle.State.of(run.status(), claimed, false),
                            event(decision, claimedStatus));
                    if (claimable && !due) {
                        // The deadline moved (an Extend) since the sweep found it passed: the card waits on.
                        return new DecisionResult.Stale(decision.runId(), digest);
                    }
                    if (claimable) {
                        AuditChain.Row stored = insertDecision(connection, decision, pauseNumber, start);
                        StoredRun claimedRun = commitClaim(connection, decision, Long.parseLong(stored.id()), run,
                                claimedStatus);
                        writeStart(connection, claimedRun, start, stored);
                        return new ClaimResult.Claimed(claimedRun);
                    }
                    // A statement of its own, after the lock: on PostgreSQL a statement that waited for a lock
                    // still reads other rows as they were when it began, before the competing claim committed.
                    // Not claimable, so a refusal: a run waiting on this card was claimed above.
                    return readRefusal(connection, decision).orElseThrow();
                });
    }

    /** The lifecycle's event of a claim: a deadline's fallback, or a decision carried out here or by a worker. */
    private static RunLifecycle.Event event(Decision decision, RunStatus claimedStatus) {
        return claimedStatus == RunStatus.QUEUED ? RunLifecycle.Event.QUEUED_DECISION
                : byDeadline(decision) ? RunLifecycle.Event.DEADLINE_FALLBACK : RunLifecycle.Event.DECISION;
    }

    private static RunStatus expectedStatus(Decision decision) {
        return decision instanceof Decision.Approval
                ? RunStatus.WAITING_FOR_APPROVAL : RunStatus.WAITING_FOR_INPUT;
    }

    /**
     * Why a claim is refused, from one consistent view of the run: its status, card digest, whether it runs on a
     * claimed decision, the decision taken on the claimed card and its latest decision. Empty when it may be
     * claimed.
     */
    private static Optional<ClaimResult> refusal(Decision decision, RunStatus status, String digest,
                                                 boolean claimed, Decision onCard, Decision latest) {
        if (onCard != null) {
            return Optional.of(new DecisionResult.AlreadyDecided(onCard));
        }
        if (status != expectedStatus(decision)) {
            boolean carriesOut = claimed && latest != null && (status == RunStatus.RUNNING
                    || status == RunStatus.QUEUED || status == RunStatus.OUTCOME_UNKNOWN);
            return Optional.of(carriesOut ? new DecisionResult.AlreadyDecided(latest)
                    : new DecisionResult.NotWaiting(decision.runId(), status));
        }
        if (!digest.equals(decision.digest())) {
            return Optional.of(new DecisionResult.Stale(decision.runId(), digest));
        }
        return Optional.empty();
    }

    /**
     * Inserts the decision on the run's current pause; returns it as stored, for its chain entry, without reading
     * it back.
     */
    private static AuditChain.Row insertDecision(Connection connection, Decision decision, int pauseNumber,
                                                 DecisionStart start) throws SQLException {
        try (NamedStatement insert = NamedStatement.prepare(connection, INSERT_DECISION)) {
            insert.set("runId", decision.runId()).set("pauseNumber", pauseNumber);
            bindDecision(insert, decision, start);
            try (ResultSet stored = insert.executeQuery()) {
                stored.next();
                return new AuditChain.Row(Long.toString(stored.getLong("id")),
                        new AuditRows().stored("decisions", stored));
            }
        }
    }

    /** Points the run at its inserted decision and returns the run as it now stands. */
    private StoredRun commitClaim(Connection connection, Decision decision, long decisionId, StoredRun run,
                                  RunStatus claimedStatus) throws SQLException {
        boolean queued = claimedStatus == RunStatus.QUEUED;
        try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET status = :claimedStatus,"
                + " claimed_decision = :decisionId, owner = :owner, updated_at = :decidedAt, queued_at = :queuedAt,"
                + " epoch = epoch + 1 WHERE id = :runId")) {
            update.set("claimedStatus", claimedStatus.code()).set("decisionId", decisionId)
                    .set("owner", queued ? null : session.id()).set("decidedAt", decision.decidedAt())
                    .set("queuedAt", queued ? decision.decidedAt() : null).set("runId", decision.runId())
                    .executeUpdate();
        }
        return new StoredRun(run.runId(), run.agent(), run.initiator(), run.prompt(), run.unattended(),
                claimedStatus, run.createdAt(), decision.decidedAt(), run.waitingSince(), run.pausedState(),
                run.transcript(), run.history(), run.counters(), run.failureReason(), run.failureMessage(), decision,
                run.unknownOutcomeCalls(), run.epoch() + 1, run.pauseDeadline());
    }

    /**
     * Puts a run the lease's driver drives on a claimed decision back to waiting; see {@link RunStore#release}.
     */
    void release(RunLease lease, PausedState state, Instant at) {
        String runId = state.runId();
        database.write("put run " + runId + " back to waiting", ChangeKind.RUN, connection -> {
            LockedRun row = LockedRun.existing(connection, database.dialect(), runId);
            if (!row.runId().equals(lease.runId()) || row.status() != RunStatus.RUNNING
                    || !session.id().equals(row.owner()) || row.epoch() != lease.epoch()) {
                throw LockedRun.refusal(session, connection, database.dialect(), lease,
                        "it cannot be put back to waiting");
            }
            // A run driven on no decision has no card to go back to.
            row.next(state.status() == RunStatus.WAITING_FOR_INPUT ? RunLifecycle.Event.RELEASE_TO_INPUT
                    : RunLifecycle.Event.RELEASE_TO_APPROVAL);
            putBackToWaiting(connection, state, row.pauseNumber(), row.epoch(), at);
            return null;
        });
    }

    /**
     * The run waits again with the given state; the decision of its pause is gone, since it did not go through. The
     * epoch the caller found the run locked with grows, so that no earlier driver writes for it any more.
     */
    static void putBackToWaiting(Connection connection, PausedState state, int pauseNumber, long epoch, Instant at)
            throws SQLException {
        try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs SET status = :status,"
                + " updated_at = :at, paused_state = :pausedState, digest = :digest, waiting_tools = :waitingTools,"
                + " refused_count = :refusedCount, claimed_decision = NULL, outcome_unknown = NULL, owner = NULL,"
                + " queued_at = NULL, worker_id = NULL, lease_expires = NULL, failure_reason = NULL,"
                + " failure_message = NULL, epoch = epoch + 1 WHERE id = :runId AND epoch = :epoch")) {
            update.set("status", state.status().code()).set("at", at).set("runId", state.runId())
                    .set("epoch", epoch);
            RunRows.bindPausedState(update, state);
            if (update.executeUpdate() == 0) {
                throw new IllegalStateException("run " + state.runId() + " changed while it was put back to"
                        + " waiting; nothing changed");
            }
        }
        // Deleted first and chained after from the rows the delete returns: the chain's head is taken last.
        AuditRows hashes = new AuditRows();
        List<AuditChain.Row> withdrawn = new ArrayList<>();
        try (NamedStatement delete = NamedStatement.prepare(connection, "DELETE FROM decisions"
                + " WHERE run_id = :runId AND pause_number = :pauseNumber RETURNING "
                + String.join(", ", AuditRows.DECISION_COLUMNS))) {
            try (ResultSet gone = delete.set("runId", state.runId()).set("pauseNumber", pauseNumber)
                    .executeQuery()) {
                while (gone.next()) {
                    withdrawn.add(new AuditChain.Row(Long.toString(gone.getLong("id")),
                            hashes.stored("decisions", gone)));
                }
            }
        }
        CallJournal.clear(connection, state.runId());
        AuditChain.withdrawn(connection, at, withdrawn);
    }

    /** A deadline's fallback, which may claim only a run whose deadline passed. */
    private static boolean byDeadline(Decision decision) {
        return decision.decidedBy().equals(DecisionDeadlines.ACTOR);
    }
}
