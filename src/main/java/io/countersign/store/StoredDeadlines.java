package io.countersign.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.Role;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.agent.DeadlineRule;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.agent.RunDeadline;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How deadlines are kept: an agent's as the JSON object of its agents-file fields, a waiting run's in the deadline
 * columns of its row, set from its agent's when it pauses.
 */
final class StoredDeadlines {
    /** The deadline columns of {@code runs}, as {@link #read} reads them. */
    static final String COLUMNS = "deadline, deadline_span, on_deadline, escalated, escalation_role, extended_by,"
            + " extended_at";
    /** The assignments that set a new pause's deadline; bound by {@link #bindPause}. */
    static final String SET_PAUSE = "deadline = :deadline, deadline_span = :deadlineSpan, on_deadline = :onDeadline,"
            + " escalated = :escalated, escalation_role = :escalationRole, extended_by = NULL, extended_at = NULL";

    private StoredDeadlines() {
    }

    /** The JSON of an agent's deadlines, or {@code null} for none. */
    static String toJson(DecisionDeadlines deadlines) {
        if (deadlines.equals(DecisionDeadlines.NONE)) {
            return null;
        }
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        deadlines.writeTo(node);
        return node.toString();
    }

    static DecisionDeadlines fromJson(String json) throws JsonProcessingException {
        return json == null ? DecisionDeadlines.NONE : DecisionDeadlines.read(Json.mapper().readTree(json));
    }

    /** The stored deadlines of an agent, as {@link #toJson} wrote them; {@code null} for none. */
    static final String AGENT_JSON = "SELECT decision_deadlines FROM agent_configurations WHERE name = :agent";

    /** Reads an agent's {@link #AGENT_JSON} in the caller's transaction. */
    static String agentJson(Connection connection, String agent) throws SQLException {
        try (NamedStatement select = NamedStatement.prepare(connection, AGENT_JSON)) {
            try (ResultSet row = select.set("agent", agent).executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    /**
     * Binds the deadline of a run pausing at {@code at} with this state, from its agent's deadlines as stored
     * ({@link #agentJson}); no deadline for any other outcome ({@code state} null), or an agent without one.
     */
    static void bindPause(NamedStatement statement, PausedState state, String agentJson, Instant at)
            throws SQLException {
        Optional<DeadlineRule> rule = Optional.empty();
        DecisionDeadlines deadlines = DecisionDeadlines.NONE;
        if (state != null) {
            try {
                deadlines = fromJson(agentJson);
            } catch (JsonProcessingException | IllegalArgumentException e) {
                throw new SQLException("the decision deadlines of agent \"" + state.agentConfiguration()
                        + "\" are damaged: " + e.getMessage(), e);
            }
            rule = deadlines.forPause(state);
        }
        String role = rule.isPresent() ? deadlines.escalationRole().name() : null;
        statement.set("deadline", rule.map(r -> at.plus(r.span())).orElse(null))
                .set("deadlineSpan", rule.map(r -> r.span().toNanos()).orElse(null))
                .set("onDeadline", rule.map(r -> r.action().code()).orElse(null))
                .set("escalated", false)
                .set("escalationRole", role);
    }

    /** The deadline in the row's {@link #COLUMNS}; empty when it has none. */
    static Optional<RunDeadline> read(ResultSet row) throws SQLException {
        long due = row.getLong("deadline");
        if (row.wasNull()) {
            return Optional.empty();
        }
        long extendedAt = row.getLong("extended_at");
        Instant extended = row.wasNull() ? null : Nanos.toInstant(extendedAt);
        try {
            return Optional.of(new RunDeadline(Nanos.toInstant(due), Duration.ofNanos(row.getLong("deadline_span")),
                    DeadlineAction.fromCode("on_deadline", row.getString("on_deadline")), row.getBoolean("escalated"),
                    Role.valueOf(row.getString("escalation_role")), row.getString("extended_by"), extended));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new SQLException("the stored deadline of a run is damaged: " + e.getMessage(), e);
        }
    }
}
