package io.countersign.engine;

import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.invocation.ApprovalAsks;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.PreApprovalInvocationPolicy;
import io.countersign.engine.invocation.ToolInvocationPolicy;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.port.StandingGrants;
import io.countersign.engine.run.CallerChannels;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.tools.NetworkntSchemaValidator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A tool loop over real test tools and a scripted model, recording every request and event. */
final class LoopHarness {
    final List<GovernanceEvent> events = Collections.synchronizedList(new ArrayList<>());
    final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());
    final Set<String> cancelled = ConcurrentHashMap.newKeySet();
    final ToolRegistry registry;
    volatile ToolSettings settings = ToolSettings.defaults();
    ToolInvocationPolicy invocationPolicy = context -> InvocationVerdict.allowed(null);
    PreApprovalInvocationPolicy preApprovalPolicy = context -> InvocationVerdict.allowed(null);
    StandingGrants grants = StandingGrants.NONE;
    AgentConfiguration agent = AgentConfiguration.of("helper", ModelConfiguration.scripted("script"),
            List.of("files"));
    final Actor maria = Actor.of("maria", Role.OPERATOR);
    final Actor jonas = Actor.of("jonas", Role.OPERATOR);
    /** Who each call was made for; nobody who can hear, as for a model, unless a test says otherwise. */
    CallerChannels callers = CallerChannels.NONE;

    LoopHarness(Tool... tools) {
        registry = ToolRegistry.of(tools);
    }

    ToolLoop loop(ChatModel model) {
        return loop(model, context -> invocationPolicy.evaluate(context),
                context -> preApprovalPolicy.evaluate(context));
    }

    /** A loop that asks an installation's real rules instead of the harness's policy fields. */
    ToolLoop loop(ChatModel model, InvocationRules rules) {
        return loop(model, rules.invocationPolicy(), rules.preApprovalPolicy(), rules.approvalAsks());
    }

    private ToolLoop loop(ChatModel model, ToolInvocationPolicy invocation, PreApprovalInvocationPolicy preApproval) {
        return loop(model, invocation, preApproval, ApprovalAsks.NONE);
    }

    private ToolLoop loop(ChatModel model, ToolInvocationPolicy invocation, PreApprovalInvocationPolicy preApproval,
                          ApprovalAsks asks) {
        ChatModel recording = request -> {
            requests.add(request);
            return model.complete(request);
        };
        return ToolLoop.builder(registry, recording)
                .schemas(new NetworkntSchemaValidator())
                .settings(() -> settings)
                .invocationPolicies(invocation, preApproval)
                .approvalAsks(asks)
                .events(events::add)
                .cancellation(cancelled::contains)
                .grants(grants)
                .callers(callers)
                .build();
    }

    ToolLoop loop(String script) {
        return loop(ScriptedChatModel.fromJson(script));
    }

    RunRequest request(String prompt) {
        return RunRequest.of(agent, ToolExecutionContext.of(maria, "run-1", Locale.ENGLISH), prompt);
    }

    List<GovernanceEvent> events(EventType type) {
        return events.stream().filter(e -> e.type() == type).toList();
    }

    /** The result the model saw for the call with the given id. */
    static String resultOf(RunOutcome outcome, String callId) {
        return outcome.transcript().stream()
                .filter(m -> m.role() == ChatMessage.Role.TOOL && callId.equals(m.toolCallId()))
                .map(ChatMessage::content).findFirst()
                .orElseThrow(() -> new AssertionError("no result for " + callId));
    }

    /** A script: each argument is one turn's JSON object. */
    static String script(String... turns) {
        return "{\"turns\": [" + String.join(",", turns) + "]}";
    }

    static String calls(String... calls) {
        return "{\"content\": \"working\", \"toolCalls\": [" + String.join(",", calls) + "],"
                + " \"usage\": {\"prompt\": 10, \"completion\": 5}}";
    }

    static String call(String id, String name, String arguments) {
        return "{\"id\": \"" + id + "\", \"name\": \"" + name + "\", \"arguments\": " + arguments + "}";
    }

    static String answer(String text) {
        return "{\"content\": \"" + text + "\", \"usage\": {\"prompt\": 7, \"completion\": 3}}";
    }
}
