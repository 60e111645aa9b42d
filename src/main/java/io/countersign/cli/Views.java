package io.countersign.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.access.SettingChange;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.service.AgentSummary;
import io.countersign.service.DecidedRun;
import io.countersign.service.RunCard;
import io.countersign.service.RunTimeline;
import io.countersign.service.SettingPreview;
import io.countersign.service.ToolSettingView;
import io.countersign.store.LoginPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The JSON a command prints for each value of the service layer; field names are the command's contract. */
final class Views {

    private Views() {
    }

    static ObjectNode object() {
        return Output.JSON.createObjectNode();
    }

    static ArrayNode array() {
        return Output.JSON.createArrayNode();
    }

    static String code(Enum<?> value) {
        return value == null ? null : value.name().toLowerCase(Locale.ROOT);
    }

    static String time(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    static ObjectNode agent(AgentSummary agent) {
        ObjectNode node = object().put("name", agent.name()).put("model", agent.model())
                .put("trustZone", agent.trustZone());
        agent.toolGroups().forEach(node.putArray("toolGroups")::add);
        node.put("fourEyes", agent.fourEyes()).put("scripted", agent.scripted());
        // the deadline fields as the agents file writes them; none when cards wait without one
        agent.deadlines().writeTo(node);
        // and the approval counts, when a card needs more than one person
        agent.approvals().writeTo(node);
        return node;
    }

    /**
     * A run whose committed decision waits for a process that can connect the servers of its calls: nothing to
     * decide, a reason to read.
     */
    static ObjectNode decided(DecidedRun run) {
        ObjectNode node = object().put("runId", run.runId()).put("status", RunStatus.RUNNING.code())
                .put("agent", run.agent()).put("initiator", run.initiator()).put("decidedBy", run.decidedBy())
                .put("decidedAt", time(run.decidedAt())).put("decision", run.summary())
                .put("waitingFor", run.reason());
        strings(node, "waitingForServers", run.servers());
        return node;
    }

    /**
     * A run stopped with a call whose outcome is unknown: nothing to decide, a run to settle; {@code waitingSince} is
     * when it was flagged.
     */
    static ObjectNode toSettle(RunSummary run) {
        return object().put("runId", run.runId()).put("status", run.status().code()).put("agent", run.agent())
                .put("initiator", run.initiator()).put("waitingSince", time(run.updatedAt()))
                .put("failure", run.failure()).put("damage", run.damage())
                .put("waitingFor", settleHint(run.runId(), run.damaged()));
    }

    /** What a person does with a run whose outcome is unknown, or one whose stored state is damaged. */
    static String settleHint(String runId, boolean damaged) {
        return damaged ? "damaged: settle --fail " + runId
                : "outcome unknown: settle " + runId + " --retry (decide again) or --fail";
    }

    /** A card's deadline at {@code now}: when, how long left, the fallback, escalated and extended; or null. */
    static JsonNode deadline(RunDeadline deadline, Instant now) {
        if (deadline == null) {
            return Output.JSON.nullNode();
        }
        return object().put("due", time(deadline.due())).put("left", deadline.describeLeft(now))
                .put("secondsLeft", deadline.left(now).getSeconds()).put("onDeadline", deadline.action().code())
                .put("escalated", deadline.escalated())
                .put("escalationRole", code(deadline.escalationRole()))
                .put("extendedBy", deadline.extendedBy())
                .put("extendedAt", deadline.extendedAt() == null ? null : time(deadline.extendedAt()));
    }

    /** The inbox column of a card's deadline: time left and fallback, escalated said first. */
    static String deadlineColumn(RunDeadline deadline, Instant now) {
        return deadline == null ? "" : (deadline.escalated() ? "ESCALATED " : "") + deadline.describeLeft(now)
                + " (" + deadline.action().code() + ")";
    }

    /** A waiting run with everything needed to decide it: the inbox entry and the card of {@code show}. */
    static ObjectNode card(RunCard card) {
        ObjectNode node = object().put("runId", card.runId()).put("status", card.status().code())
                .put("agent", card.agent()).put("initiator", card.initiator())
                .put("waitingSince", time(card.waitingSince())).put("digest", card.digest())
                .put("prompt", card.prompt()).put("lastModelMessage", card.lastModelMessage())
                .put("fourEyes", card.fourEyes());
        if (card.stranded() != null) {
            node.put("stranded", card.stranded());
        }
        ArrayNode pending = node.putArray("pending");
        for (RunCard.PendingCallView call : card.pending()) {
            ObjectNode item = pending.addObject().put("index", call.index()).put("tool", call.tool());
            item.set("arguments", parse(call.argumentsJson()));
            item.set("target", target(call.target()));
            call.preview().forEach(item.putArray("preview")::add);
            item.put("effect", effect(call.effect())).put("remote", call.remote())
                    .put("effectText", call.effectText())
                    .put("dataClass", call.dataClass().code()).put("stale", call.stale());
            if (call.askedBy() != null) {
                item.put("askedBy", call.askedBy());
            }
            if (call.declaration() != null) {
                item.set("declaration", declaration(call.declaration()));
                item.put("serverClaims", call.serverClaims().isEmpty() ? null : call.serverClaims());
            }
        }
        ArrayNode refused = node.putArray("refused");
        for (RunCard.RefusedCallView call : card.refused()) {
            refused.addObject().put("index", call.index()).put("tool", call.tool()).put("rule", call.rule())
                    .put("reason", call.reason()).put("explanation", call.explanation());
        }
        if (card.input() == null) {
            node.putNull("input");
        } else {
            ObjectNode input = node.putObject("input").put("index", card.input().index())
                    .put("tool", card.input().tool());
            ArrayNode fields = input.putArray("fields");
            for (InputField field : card.input().fields()) {
                ObjectNode item = fields.addObject().put("name", field.name()).put("type", code(field.type()))
                        .put("label", field.label()).put("description", field.description())
                        .put("required", field.required());
                field.options().forEach(item.putArray("options")::add);
            }
            ObjectNode guesses = input.putObject("modelGuesses");
            card.input().modelGuesses().forEach(guesses::put);
        }
        return node;
    }

    /** {@code read} or {@code write}; {@code unknown} for a remote tool: only its declaration says whether it waits. */
    private static String effect(ToolEffect effect) {
        return effect == null ? "unknown" : code(effect);
    }

    /** A remote tool's declaration in force: what, from where, by whom, and in words. */
    static ObjectNode declaration(RemoteDeclaration declaration) {
        return object().put("declaration", declaration.declaration().code())
                .put("source", declaration.source().code()).put("declaredBy", declaration.declaredBy())
                .put("text", declaration.describe());
    }

    static JsonNode target(ToolInvocationTarget target) {
        return target == null ? Output.JSON.nullNode()
                : object().put("kind", target.kind()).put("identifier", target.identifier());
    }

    static ObjectNode event(GovernanceEvent event) {
        return object().put("id", event.id()).put("time", time(event.time())).put("type", event.type().code())
                .put("reason", event.reasonCode()).put("tool", event.toolName()).put("rule", event.ruleId())
                .put("run", event.runId()).put("agent", event.agentConfiguration()).put("actor", event.actor())
                .put("model", event.model()).put("detail", event.detail());
    }

    static ObjectNode entry(RunTimeline.Entry entry) {
        return object().put("kind", code(entry.kind())).put("time", time(entry.time())).put("title", entry.title())
                .put("body", entry.body());
    }

    static ObjectNode call(ToolInvocationObservation call) {
        ObjectNode node = object().put("tool", call.toolName()).put("outcome", call.outcome().code());
        node.set("target", target(call.target()));
        return node;
    }

    /**
     * A tool as the settings govern it; a remote tool's effect is "unknown", its declaration in force (its own or
     * its server's, with who made it) and its server's claims beside it.
     */
    static ObjectNode tool(ToolSettingView tool) {
        boolean remote = tool.declaration() != null;
        ObjectNode node = object().put("name", tool.name()).put("group", tool.group())
                .put("effect", effect(tool.effect()))
                .put("dataClass", tool.dataClass().code()).put("server", tool.server())
                .put("serverDeclaration", tool.serverDeclaration() == null ? null
                        : tool.serverDeclaration().plainWords());
        if (remote) {
            node.set("declaration", declaration(tool.declaration()));
            node.put("serverClaims", tool.serverClaims().isEmpty() ? null : tool.serverClaims());
        }
        return node.put("enabled", tool.enabled()).put("approvalBound", tool.approvalBound())
                .put("approvalConfigurable", tool.approvalControl().configurable())
                .put("fixedBecause", tool.approvalControl().fixedReason()).put("asksForInput", tool.asksForInput())
                .put("runsUnattended", tool.runsUnattended());
    }

    static ObjectNode change(SettingChange change) {
        return object().put("id", change.id()).put("time", time(change.time())).put("actor", change.actor())
                .put("setting", change.settingKey()).put("oldValue", change.oldValue())
                .put("newValue", change.newValue());
    }

    static ObjectNode preview(SettingPreview preview) {
        ObjectNode node = object();
        strings(node, "refusals", preview.refusals());
        strings(node, "joinUnattended", preview.joinUnattended());
        strings(node, "deniedJoining", preview.deniedJoining());
        strings(node, "leaveUnattended", preview.leaveUnattended());
        strings(node, "becomeApprovalBound", preview.becomeApprovalBound());
        strings(node, "stopApprovalBound", preview.stopApprovalBound());
        ObjectNode calls = node.putObject("recentCalls").put("sampled", preview.calls().sampled());
        counts(calls.putObject("now"), preview.calls().before());
        counts(calls.putObject("after"), preview.calls().after());
        return node;
    }

    private static void counts(ObjectNode node, SettingPreview.CallCounts counts) {
        node.put("paused", counts.paused()).put("ran", counts.ran()).put("refused", counts.refused());
    }

    /**
     * A server record with the tools declared by themselves; every value it shows is plain or a reference
     * {@code env:NAME}, never a secret.
     */
    static ObjectNode server(McpServerRecord server, Map<String, RemoteDeclaration> toolDeclarations) {
        ObjectNode node = object().put("name", server.name());
        if (server.transport() instanceof McpServerRecord.Stdio stdio) {
            node.put("transport", "stdio").put("command", stdio.command());
            strings(node, "args", stdio.args());
            new TreeMap<>(stdio.env()).forEach(node.putObject("env")::put);
        } else {
            McpServerRecord.StreamableHttp http = (McpServerRecord.StreamableHttp) server.transport();
            node.put("transport", "streamable_http").put("url", http.url().toString());
            new TreeMap<>(http.headers()).forEach(node.putObject("headers")::put);
        }
        node.put("enabled", server.enabled()).put("approvalBound", server.declaration().approvalBound())
                .put("declaration", server.declaration().plainWords())
                .put("group", server.group()).put("dataClass", server.dataClass().code());
        seconds(node, "timeoutSeconds", server.callTimeout());
        seconds(node, "connectTimeoutSeconds", server.connectTimeout());
        ObjectNode tools = node.putObject("toolDeclarations");
        toolDeclarations.forEach((tool, declaration) -> tools.set(tool, declaration(declaration)));
        return node;
    }

    /** Whole seconds as an integer, as the command line takes them; a fraction only where one was set. */
    private static void seconds(ObjectNode node, String field, Duration duration) {
        if (duration.toMillis() % 1000 == 0) {
            node.put(field, duration.toSeconds());
        } else {
            node.put(field, duration.toMillis() / 1000.0);
        }
    }

    static ObjectNode user(Actor user) {
        ObjectNode node = object().put("name", user.name());
        user.roles().stream().map(Views::code).sorted().forEach(node.putArray("roles")::add);
        return node;
    }

    /** A plan to adopt logins: whose login each stored person gets, and whether the owner becomes an admin. */
    static void loginPlan(ObjectNode node, LoginPlan plan) {
        node.put("storeVersion", plan.storeVersion()).put("owner", plan.owner())
                .put("ownerBecomesAdmin", plan.ownerBecomesAdmin());
        ArrayNode people = node.putArray("people");
        for (LoginPlan.Person person : plan.people()) {
            ObjectNode entry = people.addObject().put("person", person.name()).put("login", person.name())
                    .put("loginExists", person.loginExists());
            person.roles().stream().map(Views::code).sorted().forEach(entry.putArray("roles")::add);
            if (!person.loginExists()) {
                entry.put("createLogin", person.createLogin());
            }
        }
    }

    static void strings(ObjectNode node, String field, List<String> values) {
        values.forEach(node.putArray(field)::add);
    }

    private static JsonNode parse(String json) {
        try {
            return Output.JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return Output.JSON.getNodeFactory().textNode(json);
        }
    }
}
