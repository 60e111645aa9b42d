package io.countersign.store;

import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.port.HostedRuns;
import io.countersign.engine.port.RunLease;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The execution journal in {@code call_intents}, of one driver of a run: each intent in a durable commit of its
 * own, the last durable write before the call's tool executes (a gateway run's intent without waiting for the disk,
 * see {@link io.countersign.engine.port.HostedRuns#hostedJournal}); the outcomes kept back and committed, without
 * waiting for the disk, before the model is asked again, or with the stretch's outcome (which clears the journal).
 * Every write holds only while the driver's lease is current, checked in the write's own statement: a driver frozen
 * past its lease fails its intent and executes nothing, or had it committed, and the run's taker then sees an
 * intent without an outcome and flags it.
 */
final class CallJournal implements ExecutionJournal {
    /** An intent of a call, written while the lease's driver still drives the run; the run's row locked. */
    private static final String INSERT_INTENT = "INSERT INTO call_intents (run_id, call_id, tool_name, started_at)"
            + " SELECT r.id, :callId, :toolName, :startedAt FROM runs r WHERE r.id = :runId AND " + LockedRun.DRIVEN;

    /** Records a call's outcome, while the lease's driver drives the run; {@code %s} is what it is joined with. */
    private static final String RECORD_OUTCOME = "UPDATE call_intents SET outcome = :outcome,"
            + " finished_at = :finishedAt%s WHERE run_id = :runId AND call_id = :callId AND outcome IS NULL"
            + " AND EXISTS (SELECT 1 FROM runs r WHERE r.id = :runId AND " + LockedRun.DRIVEN + ")";
    private static final String RECORD_OUTCOME_ALONE = String.format(Locale.ROOT, RECORD_OUTCOME, "");
    /** On PostgreSQL the update defers its transaction's commit itself, sparing a round trip. */
    private static final String RECORD_OUTCOME_DEFERRING = "WITH deferred AS (SELECT " + Database.DEFER_COMMIT
            + " AS setting) " + String.format(Locale.ROOT, RECORD_OUTCOME, " FROM deferred");

    private final Database database;
    private final StoreSession session;
    private final RunLease lease;
    /** False for a gateway run's journal, whose intents need not wait for the disk. */
    private final boolean intentsAwaitTheDisk;
    private final List<Finished> keptBack = new ArrayList<>();

    CallJournal(Database database, StoreSession session, RunLease lease, boolean intentsAwaitTheDisk) {
        this.database = database;
        this.session = session;
        this.lease = lease;
        this.intentsAwaitTheDisk = intentsAwaitTheDisk;
    }

    private record Finished(String callId, ToolInvocationObservation.Outcome outcome, Instant at) {
    }

    @Override
    public void beforeExecute(String runId, String callId, String toolName) {
        requireLeased(runId);
        String what = "record that call " + callId + " of run " + runId + " starts";
        SqlWork<Void> intent = connection -> {
            writeIntents(connection, database, session, lease, List.of(new Intent(callId, toolName)),
                    "call " + callId + " was not started");
            return null;
        };
        if (intentsAwaitTheDisk) {
            database.write(what, intent);
        } else {
            database.writeDeferred(what, null, intent);
        }
    }

    @Override
    public void afterExecute(String runId, String callId, ToolInvocationObservation.Outcome outcome) {
        requireLeased(runId);
        keptBack.add(new Finished(callId, outcome, database.clock().instant()));
    }

    @Override
    public void beforeModelCall(String runId) {
        requireLeased(runId);
        if (keptBack.isEmpty()) {
            return;
        }
        String sql = database.dialect() == Dialect.POSTGRESQL ? RECORD_OUTCOME_DEFERRING : RECORD_OUTCOME_ALONE;
        database.writeDeferredByItself("record the outcomes of the calls of run " + runId, connection -> {
            try (NamedStatement update = NamedStatement.prepare(connection, sql)) {
                LockedRun.bindDriven(update, session, lease).set("runId", runId);
                for (Finished finished : keptBack) {
                    int updated = update.set("outcome", finished.outcome().code())
                            .set("finishedAt", finished.at()).set("callId", finished.callId()).executeUpdate();
                    if (updated == 0) {
                        throw LockedRun.refusal(session, connection, database.dialect(), lease,
                                "the model is not asked again");
                    }
                }
            }
            return null;
        });
        keptBack.clear();
    }

    private void requireLeased(String runId) {
        if (!lease.runId().equals(runId)) {
            throw new IllegalArgumentException("the journal of run " + lease.runId() + " cannot record calls of run "
                    + runId);
        }
    }

    /**
     * Writes the intents in the caller's transaction, each only while the lease's driver drives the run (on
     * PostgreSQL the run's row is locked, so a take-over waits and then sees them).
     *
     * @throws io.countersign.engine.port.RunTakenOverException when it no longer does; nothing is written
     */
    static void writeIntents(Connection connection, Database database, StoreSession session, RunLease lease,
                             List<Intent> intents, String consequence) throws SQLException {
        Dialect dialect = database.dialect();
        try (NamedStatement insert = NamedStatement.prepare(connection, INSERT_INTENT + dialect.lockRowsOf("r"))) {
            LockedRun.bindDriven(insert, session, lease).set("runId", lease.runId())
                    .set("startedAt", database.clock().instant());
            for (Intent intent : intents) {
                if (insert.set("callId", intent.callId()).set("toolName", intent.toolName()).executeUpdate() == 0) {
                    throw LockedRun.refusal(session, connection, dialect, lease, consequence);
                }
            }
        }
    }

    /** Forgets the run's journal, in the caller's transaction: its stretch ended, or it waits again. */
    static void clear(Connection connection, String runId) throws SQLException {
        try (NamedStatement delete = NamedStatement.prepare(connection,
                "DELETE FROM call_intents WHERE run_id = :runId")) {
            delete.set("runId", runId).executeUpdate();
        }
    }

    /**
     * The calls whose outcome is unknown after their process stopped: those begun and never finished, else all
     * of them (their results were lost with the process). Empty when the stretch started no call.
     */
    static List<String> unknownOutcomes(Connection connection, String runId) throws SQLException {
        List<String> open = new ArrayList<>();
        List<String> all = new ArrayList<>();
        try (NamedStatement select = NamedStatement.prepare(connection, "SELECT call_id, outcome FROM call_intents"
                + " WHERE run_id = :runId ORDER BY id")) {
            try (ResultSet rows = select.set("runId", runId).executeQuery()) {
                while (rows.next()) {
                    all.add(rows.getString("call_id"));
                    if (rows.getString("outcome") == null) {
                        open.add(rows.getString("call_id"));
                    }
                }
            }
        }
        return open.isEmpty() ? all : open;
    }
}
