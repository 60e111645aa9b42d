package io.countersign.store;

import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.webhook.CardEventType;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * Queues a card's event in the outbox of every webhook that subscribes to it, inside the transaction of the change
 * it reports: on its own, a read of whether a hook subscribes and the insert only then; inside a PostgreSQL
 * statement that changes the run ({@link #insertFrom}), the insert alone, which inserts nothing when no hook
 * subscribes. What the event says comes from the run's row as the change left it (agent, who started it, the
 * waiting tools, the deadline) and from the change itself (who decided, the summary or the fallback), never from
 * the run's arguments or results. The hooks come first (SQLite keeps the order of a {@code CROSS JOIN}): with none
 * subscribed the run's row, whose later columns lie past its paused state's overflow pages, is not read at all.
 */
final class OutboxRows {
    private static final String INSERT = "INSERT INTO webhook_outbox (event_id, hook_id, type, run_id, agent,"
            + " started_by, tools, waiting_for, actor, outcome, deadline, occurred_at, attempts, next_attempt)"
            + " SELECT :eventId, h.id, :type, r.id, r.agent, r.initiator, r.waiting_tools, :waitingFor, :actor, %s,"
            + " r.deadline, :at, 0, :at FROM webhooks h CROSS JOIN %s r WHERE h.events LIKE %s AND r.id = :runId";
    /**
     * Whether a hook subscribes, and {@link #INSERT} from the run's row (the outcome the change's own, or the role
     * an escalated card goes to), by the event's type. The type's pattern is written into the text: SQLite compiles
     * a statement again at each run once a LIKE's pattern is bound to it, as the pattern might let an index serve
     * the LIKE: the read took 35 microseconds of a pause and of a claim, where it now takes 5.
     */
    private static final Map<CardEventType, String> SUBSCRIBED = byType(type -> "SELECT 1 FROM webhooks"
            + " WHERE events LIKE " + pattern(type) + " LIMIT 1");
    private static final Map<CardEventType, String> INSERT_FROM_RUNS = byType(type -> String.format(Locale.ROOT,
            INSERT, type == CardEventType.ESCALATED ? "r.escalation_role" : ":outcome", "runs", pattern(type)));

    private OutboxRows() {
    }

    /** A run paused on a card. */
    static void waiting(Connection connection, PausedState state, Instant at) throws SQLException {
        append(connection, CardEventType.WAITING, state.runId(), waitingFor(state.status()), null, null, at);
    }

    /**
     * The insert of a card's event for a PostgreSQL statement that changes the run in a data-modifying CTE: it
     * reads the run as that CTE returns it ({@code rows}, with the columns the event takes), since the other parts
     * of one statement all see the rows as they were before it. Bound by {@link #bindWaiting} or
     * {@link #bindDecided}.
     */
    static String insertFrom(String rows) {
        return String.format(Locale.ROOT, INSERT, ":outcome", rows, ":subscribed");
    }

    /** Binds an {@link #insertFrom} insert of a paused card's event, as {@link #waiting} writes it. */
    static void bindWaiting(NamedStatement insert, PausedState state, Instant at) throws SQLException {
        bind(insert, CardEventType.WAITING, state.runId(), waitingFor(state.status()), null, at)
                .set("subscribed", subscribed(CardEventType.WAITING)).set("outcome", (String) null);
    }

    /** A decision was claimed: a person's ({@code decided}) or a deadline's fallback ({@code expired}). */
    static void decided(Connection connection, Decision decision, DecisionStart start) throws SQLException {
        append(connection, decidedType(decision), decision.runId(), decidedWaitingFor(decision), decision.decidedBy(),
                decidedOutcome(decision, start), decision.decidedAt());
    }

    /** Binds an {@link #insertFrom} insert of a claimed decision's event, as {@link #decided} writes it. */
    static void bindDecided(NamedStatement insert, Decision decision, DecisionStart start) throws SQLException {
        CardEventType type = decidedType(decision);
        bind(insert, type, decision.runId(), decidedWaitingFor(decision), decision.decidedBy(), decision.decidedAt())
                .set("subscribed", subscribed(type)).set("outcome", decidedOutcome(decision, start));
    }

    private static CardEventType decidedType(Decision decision) {
        return decision.decidedBy().equals(DecisionDeadlines.ACTOR) ? CardEventType.EXPIRED : CardEventType.DECIDED;
    }

    private static String decidedWaitingFor(Decision decision) {
        return decision instanceof Decision.Approval ? "approval" : "input";
    }

    /** The fallback of a deadline's, the summary of a person's. */
    private static String decidedOutcome(Decision decision, DecisionStart start) {
        if (decidedType(decision) == CardEventType.EXPIRED) {
            return start.decisionEvent() == null ? null : start.decisionEvent().reasonCode();
        }
        return decision.summary();
    }

    /** A card was escalated; the event names the role it is shown to first. */
    static void escalated(Connection connection, String runId, Instant at) throws SQLException {
        append(connection, CardEventType.ESCALATED, runId, "approval", DecisionDeadlines.ACTOR, null, at);
    }

    private static void append(Connection connection, CardEventType type, String runId, String waitingFor,
                               String actor, String outcome, Instant at) throws SQLException {
        if (!anySubscribed(connection, type)) {
            return;
        }
        try (NamedStatement insert = NamedStatement.prepare(connection, INSERT_FROM_RUNS.get(type))) {
            bind(insert, type, runId, waitingFor, actor, at);
            if (type != CardEventType.ESCALATED) {
                insert.set("outcome", outcome);
            }
            insert.executeUpdate();
        }
    }

    /**
     * Whether a hook subscribes to the type, read in the change's transaction: the insert that finds none still
     * costs four times this read (SQLite opens the outbox and its indexes for writing), and most stores have none.
     */
    private static boolean anySubscribed(Connection connection, CardEventType type) throws SQLException {
        try (NamedStatement select = NamedStatement.prepare(connection, SUBSCRIBED.get(type))) {
            try (ResultSet rows = select.executeQuery()) {
                return rows.next();
            }
        }
    }

    /** The LIKE pattern of the hooks subscribed to the type, for a statement that binds it. */
    private static String subscribed(CardEventType type) {
        return "%," + type.code() + ",%";
    }

    /** The same pattern as an SQL literal; a type's code is a word of lower-case letters. */
    private static String pattern(CardEventType type) {
        return "'" + subscribed(type) + "'";
    }

    private static Map<CardEventType, String> byType(Function<CardEventType, String> text) {
        Map<CardEventType, String> texts = new EnumMap<>(CardEventType.class);
        for (CardEventType type : CardEventType.values()) {
            texts.put(type, text.apply(type));
        }
        return texts;
    }

    private static NamedStatement bind(NamedStatement insert, CardEventType type, String runId, String waitingFor,
                                       String actor, Instant at) throws SQLException {
        return insert.set("eventId", UUID.randomUUID().toString()).set("type", type.code())
                .set("waitingFor", waitingFor).set("actor", actor).set("at", at).set("runId", runId);
    }

    private static String waitingFor(RunStatus status) {
        return status == RunStatus.WAITING_FOR_INPUT ? "input" : "approval";
    }
}
