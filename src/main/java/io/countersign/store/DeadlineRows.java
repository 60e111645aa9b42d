package io.countersign.store;

import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.RunDeadlines.ExtendResult;
import io.countersign.engine.state.RunStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The deadlines of waiting runs: the sweep's query over the deadline index, and the escalation and the Extend,
 * each one conditional update whose condition says it has not happened yet, with its event in the same
 * transaction.
 */
record DeadlineRows(Database database) {
    private static final String WAITING = "status IN (:forApproval, :forInput)";

    List<String> due(Instant now, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        return database.read("find the runs past their deadline", connection -> {
            // The status is compared as an expression, not a column: else SQLite's planner takes the status index
            // (every waiting run) over the deadline index (only the overdue ones) and sorts them all.
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT id FROM runs"
                    + " WHERE deadline <= :now AND (status || '') IN (:forApproval, :forInput)"
                    + " ORDER BY deadline, id LIMIT :limit")) {
                List<String> due = new ArrayList<>();
                try (ResultSet rows = waiting(select.set("now", now).set("limit", limit)).executeQuery()) {
                    while (rows.next()) {
                        due.add(rows.getString(1));
                    }
                }
                return due;
            }
        });
    }

    Optional<RunDeadline> deadline(String runId) {
        return database.read("read the deadline of run " + runId, connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT " + StoredDeadlines.COLUMNS
                    + " FROM runs WHERE id = :runId AND " + WAITING)) {
                try (ResultSet row = waiting(select.set("runId", runId)).executeQuery()) {
                    return row.next() ? StoredDeadlines.read(row) : Optional.empty();
                }
            }
        });
    }

    boolean escalate(String runId, String digest, Instant now, GovernanceEvent event) {
        return database.writeIf("escalate the card of run " + runId, ChangeKind.RUN, Boolean::booleanValue,
                connection -> {
                    try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs"
                            + " SET escalated = :escalated, deadline = deadline + deadline_span, updated_at = :now"
                            + " WHERE id = :runId AND digest = :digest AND " + WAITING + " AND escalated = :not"
                            + " AND on_deadline = 'escalate' AND deadline <= :now")) {
                        int changed = waiting(update.set("escalated", true).set("now", now).set("runId", runId)
                                .set("digest", digest).set("not", false)).executeUpdate();
                        if (changed == 0) {
                            return false;
                        }
                    }
                    EventStore.insert(connection, database.clock().instant(), List.of(event));
                    OutboxRows.escalated(connection, runId, now);
                    DecisionLatencies.escalated(connection, runId, now);
                    return true;
                });
    }

    ExtendResult extend(String runId, String by, Instant at, GovernanceEvent event) {
        return database.writeIf("extend the deadline of run " + runId, ChangeKind.RUN,
                ExtendResult.Extended.class::isInstance, connection -> {
                    int changed;
                    try (NamedStatement update = NamedStatement.prepare(connection, "UPDATE runs"
                            + " SET deadline = deadline + deadline_span, extended_by = :by, extended_at = :at"
                            + " WHERE id = :runId AND " + WAITING + " AND deadline IS NOT NULL"
                            + " AND extended_by IS NULL")) {
                        changed = waiting(update.set("by", by).set("at", at).set("runId", runId)).executeUpdate();
                    }
                    try (NamedStatement select = NamedStatement.prepare(connection, "SELECT "
                            + StoredDeadlines.COLUMNS + " FROM runs WHERE id = :runId AND " + WAITING)) {
                        try (ResultSet row = waiting(select.set("runId", runId)).executeQuery()) {
                            Optional<RunDeadline> deadline = row.next() ? StoredDeadlines.read(row) : Optional.empty();
                            if (deadline.isEmpty()) {
                                return new ExtendResult.NoDeadline();
                            }
                            RunDeadline found = deadline.get();
                            if (changed == 0) {
                                return new ExtendResult.AlreadyExtended(found.extendedBy(), found.extendedAt());
                            }
                            EventStore.insert(connection, database.clock().instant(), List.of(event));
                            return new ExtendResult.Extended(found);
                        }
                    }
                });
    }

    private static NamedStatement waiting(NamedStatement statement) throws SQLException {
        return statement.set("forApproval", RunStatus.WAITING_FOR_APPROVAL.code())
                .set("forInput", RunStatus.WAITING_FOR_INPUT.code());
    }
}
