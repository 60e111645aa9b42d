package io.countersign.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.DamagedRunException;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.state.RunCounters;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.state.RunStatus;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The one mapping between the rows of {@code runs} and {@code decisions} and the engine's records, shared by every
 * part of the run store: the columns read, the decoding of a run and of a decision, and the JSON kept in columns.
 * It keeps the paused states it decoded last, so that a claim reuses the state of the card just read.
 */
final class RunRows {
    static final List<String> RUN_COLUMN_NAMES = List.of("id", "agent", "initiator", "prompt", "unattended",
            "status", "created_at", "updated_at", "waiting_since", "paused_state", "transcript", "history",
            "iterations", "prompt_tokens", "completion_tokens", "failure_reason", "failure_message",
            "outcome_unknown", "epoch", "digest", "deadline", "deadline_span", "on_deadline", "escalated",
            "escalation_role", "extended_by", "extended_at");
    static final String RUN_COLUMNS = RUN_COLUMN_NAMES.stream().map(column -> "r." + column)
            .collect(Collectors.joining(", "));
    /** Each run with its latest decision, if any: the claimed one while it runs, else the last one taken. */
    static final String SELECT_RUNS = selectRunsFrom("runs");

    /** {@link #SELECT_RUNS} over the rows of {@code source}, a table or a query's name, with the columns of runs. */
    static String selectRunsFrom(String source) {
        return "SELECT " + RUN_COLUMNS + ", " + decisionColumns("d", "last_")
                + " FROM " + source + " r LEFT JOIN decisions d ON d.run_id = r.id"
                + " AND d.pause_number = (SELECT MAX(m.pause_number) FROM decisions m WHERE m.run_id = r.id)";
    }
    /** About the cards a console shows at once; each costs some tens of kilobytes. */
    private static final int DECODED_RUNS = 100;

    /** The {@code kind} column of a decision: an approval's verdicts, or an input's values. */
    private static final String APPROVAL = "APPROVAL";
    private static final String INPUT = "INPUT";

    /** The paused states decoded last, by run id, the least recently used dropped first. */
    private final Map<String, Decoded> decoded = Collections.synchronizedMap(
            new LinkedHashMap<>(DECODED_RUNS, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Decoded> eldest) {
                    return size() > DECODED_RUNS;
                }
            });

    /** The decision columns of the table alias, each named with the prefix. */
    static String decisionColumns(String table, String prefix) {
        return Stream.of("run_id", "digest", "decided_by", "decided_at", "kind", "summary", "verdicts", "input")
                .map(column -> table + "." + column + " AS " + prefix + column).collect(Collectors.joining(", "));
    }

    Optional<StoredRun> find(Connection connection, String runId) throws SQLException {
        try (NamedStatement select = NamedStatement.prepare(connection, SELECT_RUNS + " WHERE r.id = :runId")) {
            return runs(select.set("runId", runId)).stream().findFirst();
        }
    }

    /** The runs a {@link #SELECT_RUNS} finds, each with its latest decision. */
    List<StoredRun> runs(NamedStatement select) throws SQLException {
        List<StoredRun> runs = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                runs.add(run(rows, decision(rows, "last_")));
            }
        }
        return runs;
    }

    /** The run in the row's {@link #RUN_COLUMN_NAMES}, with the latest decision given. */
    StoredRun run(ResultSet row, Decision lastDecision) throws SQLException {
        String runId = row.getString("id");
        // Its bytes: a claim compares them with the state it decoded last, without decoding a page of text again.
        byte[] paused = row.getBytes("paused_state");
        long waitingSince = row.getLong("waiting_since");
        boolean noWait = row.wasNull();
        String unknown = row.getString("outcome_unknown");
        PausedState state = paused == null ? null : pausedState(runId, paused, row.getString("digest"));
        List<ChatMessage> transcript;
        ToolInvocationHistory history;
        try {
            // A paused state holds the run's transcript and history as recorded with it: no need to read them twice.
            transcript = state != null ? state.transcript()
                    : PausedStateCodec.transcriptFromTree(readJson(row.getString("transcript")));
            history = state != null ? state.history()
                    : PausedStateCodec.historyFromTree(readJson(row.getString("history")));
        } catch (RuntimeException damage) {
            throw damaged(runId, "transcript or history", damage);
        }
        return new StoredRun(runId, row.getString("agent"), row.getString("initiator"),
                row.getString("prompt"), row.getBoolean("unattended"), status(row.getString("status"), unknown),
                Nanos.toInstant(row.getLong("created_at")), Nanos.toInstant(row.getLong("updated_at")),
                noWait ? null : Nanos.toInstant(waitingSince), state, transcript, history,
                new RunCounters(row.getInt("iterations"), new TokenUsage(row.getLong("prompt_tokens"),
                        row.getLong("completion_tokens"))),
                row.getString("failure_reason"), row.getString("failure_message"), lastDecision,
                unknown == null ? List.of() : calls(unknown), row.getLong("epoch"), pauseDeadline(row));
    }

    /**
     * The deadline the run's last pause set, or null. A damaged one is the deadline sweep's to report (it reads the
     * same columns): the run itself still reads.
     */
    private static RunDeadline pauseDeadline(ResultSet row) throws SQLException {
        try {
            return StoredDeadlines.read(row).orElse(null);
        } catch (SQLException e) {
            if (e.getCause() instanceof IllegalArgumentException || e.getCause() instanceof NullPointerException) {
                return null;
            }
            throw e;
        }
    }

    /**
     * A waiting run as the inbox lists it, from the summary written beside its paused state (migration V10); a
     * run paused before that has its {@code unsummarized_state} decoded instead. A row that does not decode is
     * listed as damaged.
     */
    WaitingRun summary(ResultSet row) throws SQLException {
        String runId = row.getString("id");
        RunStatus status = RunStatus.fromCode(row.getString("status"));
        Instant waitingSince = Nanos.toInstant(row.getLong("waiting_since"));
        String unsummarized = row.getString("unsummarized_state");
        String tools = row.getString("waiting_tools");
        try {
            if (unsummarized != null) {
                return WaitingRun.of(runId, status, row.getString("agent"), row.getString("initiator"),
                        row.getString("prompt"), waitingSince, pausedState(runId,
                                unsummarized.getBytes(StandardCharsets.UTF_8), row.getString("digest")));
            }
            return new WaitingRun(runId, status, row.getString("agent"), row.getString("initiator"),
                    row.getString("prompt"), waitingSince, tools == null ? List.of() : List.of(tools.split("\n")),
                    row.getInt("refused_count"), row.getString("digest"));
        } catch (RuntimeException damage) {
            return WaitingRun.damaged(runId, status, row.getString("agent"), row.getString("initiator"),
                    row.getString("prompt"), waitingSince, damaged(runId, "inbox summary", damage).damage());
        }
    }

    /** A run as the list of recent runs shows it; a row that does not decode is listed as damaged. */
    RunSummary recentSummary(ResultSet row) throws SQLException {
        try {
            return RunSummary.of(run(row, decision(row, "last_")));
        } catch (RuntimeException damage) {
            String runId = row.getString("id");
            return RunSummary.damaged(runId, row.getString("agent"), row.getString("initiator"),
                    row.getString("prompt"), status(row.getString("status"), row.getString("outcome_unknown")),
                    Nanos.toInstant(row.getLong("created_at")), Nanos.toInstant(row.getLong("updated_at")),
                    damaged(runId, "run", damage).damage());
        }
    }

    /** The run's stored {@code part} does not decode: the damage, named, for this run alone. */
    private static DamagedRunException damaged(String runId, String part, RuntimeException damage) {
        if (damage instanceof DamagedRunException already) {
            return already;
        }
        String reason = damage.getMessage() == null ? damage.getClass().getSimpleName() : damage.getMessage();
        return new DamagedRunException(runId, reason.startsWith("damaged ") ? reason
                : "damaged " + part + ": " + reason, damage);
    }

    /** The decision in the columns of the prefix, or {@code null} when the join found none. */
    static Decision decision(ResultSet row, String prefix) throws SQLException {
        String runId = row.getString(prefix + "run_id");
        if (runId == null) {
            return null;
        }
        String decidedBy = row.getString(prefix + "decided_by");
        Instant decidedAt = Nanos.toInstant(row.getLong(prefix + "decided_at"));
        String digest = row.getString(prefix + "digest");
        String summary = row.getString(prefix + "summary");
        return switch (row.getString(prefix + "kind")) {
            case APPROVAL -> new Decision.Approval(runId, decidedBy, decidedAt, digest, summary,
                    verdictsFromJson(row.getString(prefix + "verdicts")));
            case INPUT -> new Decision.Input(runId, decidedBy, decidedAt, digest, summary,
                    (ObjectNode) readJson(row.getString(prefix + "input")));
            default -> throw new IllegalStateException("decision on run " + runId + " is of an unknown kind \""
                    + row.getString(prefix + "kind") + "\"");
        };
    }

    /**
     * Binds the paused state and what the inbox reads of it without decoding it: {@code :pausedState}, its
     * {@code :digest}, the {@code :waitingTools} (one per line) and its {@code :refusedCount}; all NULL for none.
     */
    static void bindPausedState(NamedStatement statement, PausedState state) throws SQLException {
        bindPausedState(statement, state, state == null ? null : PausedStateCodec.toJson(state));
    }

    /** As {@link #bindPausedState(NamedStatement, PausedState)}, with the state written as {@code json} already. */
    static void bindPausedState(NamedStatement statement, PausedState state, String json) throws SQLException {
        statement.set("pausedState", json)
                .set("digest", state == null ? null : state.digest())
                .set("waitingTools", state == null ? null : String.join("\n", state.waitingToolNames()))
                .set("refusedCount", state == null ? null : Integer.valueOf(state.refused().size()));
    }

    /**
     * Binds the decision's own values: {@code :decidedBy}, {@code :decidedAt}, {@code :kind}, {@code :digest},
     * {@code :summary}, {@code :verdicts} and {@code :input}.
     */
    static void bindDecision(NamedStatement statement, Decision decision) throws SQLException {
        Decision.Approval approval = decision instanceof Decision.Approval given ? given : null;
        Decision.Input input = decision instanceof Decision.Input given ? given : null;
        statement.set("decidedBy", decision.decidedBy())
                .set("decidedAt", decision.decidedAt())
                .set("kind", approval != null ? APPROVAL : INPUT)
                .set("digest", decision.digest())
                .set("summary", decision.summary())
                .set("verdicts", verdictsToJson(approval == null ? List.of() : approval.verdicts()))
                .set("input", input == null ? null : input.values().toString());
    }

    /**
     * The paused state stored as {@code json}: the one decoded last for the run when it was decoded from the very
     * same text, else decoded now ({@link DamagedRunException} when it does not decode, or when its digest is not
     * the one recorded with it at its pause, {@code recordedDigest}). A decision reads the card and then claims it
     * (see {@code DefaultRunService}), so the claim finds the state of the card it was just shown.
     */
    PausedState pausedState(String runId, byte[] json, String recordedDigest) {
        Decoded last = decoded.get(runId);
        if (last == null || !Arrays.equals(last.json(), json)) {
            PausedState state;
            try {
                state = PausedStateCodec.fromJson(json);
            } catch (RuntimeException damage) {
                throw damaged(runId, "paused state", damage);
            }
            last = new Decoded(json, state, state.digest());
            decoded.put(runId, last);
        }
        if (!last.digest().equals(recordedDigest)) {
            // Every write of a card records its digest with it: a card that differs was written by someone else.
            throw DamagedRunException.changedBehindCountersign(runId);
        }
        return last.state();
    }

    /**
     * Remembers a state this process has just stored as {@code json}, as if decoded from it: the card's next read
     * here finds it by the same bytes, and any other text stored for the run since is decoded as ever.
     */
    void remember(PausedState state, String json) {
        decoded.put(state.runId(), new Decoded(json.getBytes(StandardCharsets.UTF_8), state, state.digest()));
    }

    /** A paused state, the stored text it was decoded from (UTF-8) and its digest. */
    private record Decoded(byte[] json, PausedState state, String digest) {
    }

    /**
     * A run's status from its stored code and {@code outcome_unknown}: a run flagged with calls whose outcome is
     * unknown stays {@code running} in its row, which keeps its card and decision for {@code settle --retry}, and
     * reads as {@link RunStatus#OUTCOME_UNKNOWN}.
     */
    static RunStatus status(String code, String outcomeUnknown) {
        RunStatus stored = RunStatus.fromCode(code);
        return stored == RunStatus.RUNNING && outcomeUnknown != null ? RunStatus.OUTCOME_UNKNOWN : stored;
    }

    /** Call ids kept as a JSON array, as {@code outcome_unknown} holds them. */
    static String callsToJson(List<String> calls) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        calls.forEach(array::add);
        return array.toString();
    }

    static List<String> calls(String json) {
        List<String> calls = new ArrayList<>();
        readJson(json).forEach(call -> calls.add(call.asText()));
        return calls;
    }

    static String verdictsToJson(List<Decision.CallVerdict> verdicts) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (Decision.CallVerdict verdict : verdicts) {
            ObjectNode item = array.addObject().put("index", verdict.index()).put("approved", verdict.approved())
                    .put("reason", verdict.reason());
            if (verdict.edited()) {
                // a person's arguments in place of the model's: the run's own data, carried out again after a crash
                item.set("arguments", verdict.arguments());
            }
        }
        return array.toString();
    }

    static List<Decision.CallVerdict> verdictsFromJson(String json) {
        List<Decision.CallVerdict> verdicts = new ArrayList<>();
        for (JsonNode item : readJson(json)) {
            JsonNode reason = item.get("reason");
            JsonNode arguments = item.get("arguments");
            verdicts.add(new Decision.CallVerdict(item.path("index").asInt(),
                    item.path("approved").asBoolean(), reason == null || reason.isNull() ? null : reason.asText(),
                    arguments instanceof ObjectNode edited ? edited : null));
        }
        return verdicts;
    }

    static JsonNode readJson(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new StoreException("a stored run holds damaged JSON: " + e.getOriginalMessage(), e);
        }
    }
}
