package io.countersign.service;

import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.EventStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** Builds a run's timeline: its transcript with its governance events among it, in the order they happened. */
final class RunTimelines {
    private static final int TIMELINE_EVENT_LIMIT = 1000;

    private final EventStore events;
    private final ToolRegistry registry;

    RunTimelines(EventStore events, ToolRegistry registry) {
        this.events = Objects.requireNonNull(events, "events");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    RunTimeline of(StoredRun run) {
        List<ChatMessage> transcript = run.pausedState() != null ? run.pausedState().transcript() : run.transcript();
        List<GovernanceEvent> runEvents = new ArrayList<>(events.page(EventFilter.all().withRunId(run.runId()),
                PageRequest.first(TIMELINE_EVENT_LIMIT)).events());
        Collections.reverse(runEvents);
        List<RunTimeline.Entry> entries = TimelineOrder.merge(steps(run, transcript), runEvents,
                RunTimelines::entry,
                // the admin's settings of today may differ from the run's day; the built-in rule is near enough
                // to find the round an approval resumed
                name -> ToolSettings.defaults().requiresApproval(registry.find(name).orElse(null)));
        String failure = run.failureReason() == null ? null : run.failureReason() + ": " + run.failureMessage();
        return new RunTimeline(run.runId(), run.status(), run.agent(), run.initiator(), run.createdAt(), failure,
                entries);
    }

    private static List<TimelineOrder.Step> steps(StoredRun run, List<ChatMessage> transcript) {
        List<TimelineOrder.Step> steps = new ArrayList<>();
        int round = -1;
        for (int index = 0; index < transcript.size(); index++) {
            ChatMessage message = transcript.get(index);
            switch (message.role()) {
                case SYSTEM -> steps.add(new TimelineOrder.Step(new RunTimeline.Entry(RunTimeline.Kind.SYSTEM, null,
                        "System prompt", message.content()), round));
                case USER -> steps.add(new TimelineOrder.Step(new RunTimeline.Entry(RunTimeline.Kind.USER, null,
                        run.initiator(), message.content()), round));
                case ASSISTANT -> {
                    round = index;
                    if (!message.content().isBlank()) {
                        steps.add(new TimelineOrder.Step(new RunTimeline.Entry(RunTimeline.Kind.ASSISTANT, null,
                                "Model", message.content()), round));
                    }
                    for (ToolCall call : message.toolCalls()) {
                        steps.add(new TimelineOrder.Step(new RunTimeline.Entry(RunTimeline.Kind.TOOL_CALL, null,
                                call.name(), PrettyJson.of(call.arguments())), round));
                    }
                }
                case TOOL -> steps.add(new TimelineOrder.Step(new RunTimeline.Entry(RunTimeline.Kind.TOOL_RESULT,
                        null, toolNameOf(transcript, message.toolCallId()), message.content()), round));
            }
        }
        return steps;
    }

    private static RunTimeline.Entry entry(GovernanceEvent event) {
        return new RunTimeline.Entry(
                TimelineOrder.isDecision(event) ? RunTimeline.Kind.DECISION : RunTimeline.Kind.EVENT, event.time(),
                event.type().code() + (event.toolName() == null ? "" : " · " + event.toolName()), describe(event));
    }

    private static String describe(GovernanceEvent event) {
        List<String> parts = new ArrayList<>();
        if (event.actor() != null) {
            parts.add("by " + event.actor());
        }
        if (event.ruleId() != null) {
            parts.add("rule " + event.ruleId());
        }
        if (event.reasonCode() != null) {
            parts.add("reason " + event.reasonCode());
        }
        if (event.detail() != null) {
            parts.add(event.detail());
        }
        return String.join(" · ", parts);
    }

    private static String toolNameOf(List<ChatMessage> transcript, String callId) {
        return transcript.stream().flatMap(m -> m.toolCalls().stream()).filter(c -> c.id().equals(callId))
                .map(ToolCall::name).findFirst().orElse("tool");
    }
}
