package io.countersign.telemetry;

import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.PersonWait;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.StretchStart;
import io.countersign.engine.state.RunStatus;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's telemetry as OpenTelemetry spans after the GenAI semantic conventions, with the measurements
 * beside them. A run's spans share the trace its id derives ({@link RunTraceIds}), whichever process records them.
 * Spans carry codes, names and counts only; the arguments and results of calls only when content capture is on.
 */
final class RunTraces implements RunTelemetry {
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> AGENT = AttributeKey.stringKey("gen_ai.agent.name");
    static final AttributeKey<String> CONVERSATION = AttributeKey.stringKey("gen_ai.conversation.id");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<List<String>> FINISH_REASONS =
            AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    static final AttributeKey<String> TOOL_TYPE = AttributeKey.stringKey("gen_ai.tool.type");
    static final AttributeKey<String> TOOL_ARGUMENTS = AttributeKey.stringKey("gen_ai.tool.call.arguments");
    static final AttributeKey<String> TOOL_RESULT = AttributeKey.stringKey("gen_ai.tool.call.result");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> CONFIGURATION = AttributeKey.stringKey("countersign.model.configuration");
    static final AttributeKey<String> RUN_STATUS = AttributeKey.stringKey("countersign.run.status");
    static final AttributeKey<Boolean> RESUMED = AttributeKey.booleanKey("countersign.run.resumed");
    static final AttributeKey<String> EXECUTION = AttributeKey.stringKey("countersign.execution.outcome");
    static final AttributeKey<String> RULE = AttributeKey.stringKey("countersign.rule.id");
    static final AttributeKey<String> REASON = AttributeKey.stringKey("countersign.reason.code");
    static final AttributeKey<String> DECISION = AttributeKey.stringKey("countersign.decision.outcome");
    static final AttributeKey<String> DECIDED_BY = AttributeKey.stringKey("countersign.decision.decided_by");
    static final AttributeKey<Long> APPROVALS = AttributeKey.longKey("countersign.decision.approvals");
    static final AttributeKey<String> FALLBACK = AttributeKey.stringKey("countersign.deadline.fallback");
    static final AttributeKey<String> DEADLINE = AttributeKey.stringKey("countersign.deadline.due");
    static final AttributeKey<Long> WAITED = AttributeKey.longKey("countersign.wait.duration_ms");
    /** Reads a caller's {@code traceparent} from a map of one. */
    private static final TextMapGetter<Map<String, String>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };
    /** The name of the wait for a person's span: Countersign's own, beside the GenAI operations. */
    static final String WAIT_SPAN = "countersign.wait_for_person";

    private final Tracer tracer;
    private final RunMeasures measures;
    private final boolean captureContent;
    /** The stretch span open in this process per run, for the span events of the run's governance events. */
    private final Map<String, Span> open = new ConcurrentHashMap<>();

    RunTraces(Tracer tracer, RunMeasures measures, boolean captureContent) {
        this.tracer = tracer;
        this.measures = measures;
        this.captureContent = captureContent;
    }

    @Override
    public Stretch stretch(StretchStart start) {
        var builder = tracer.spanBuilder("invoke_agent " + start.agent()).setSpanKind(SpanKind.INTERNAL)
                .setAttribute(OPERATION, "invoke_agent").setAttribute(AGENT, start.agent())
                .setAttribute(CONVERSATION, start.runId()).setAttribute(RESUMED, start.resumed());
        Span span = start.resumed()
                ? builder.setParent(Context.root().with(Span.wrap(RunTraceIds.runRoot(start.runId())))).startSpan()
                : RunTraceIds.asRunRoot(start.runId(), () -> builder.setNoParent().startSpan());
        open.put(start.runId(), span);
        return new TracedStretch(start.runId(), span);
    }

    @Override
    public void recorded(GovernanceEvent event) {
        String name = switch (event.type()) {
            case INVOCATION_DENIED -> "countersign.invocation.refused";
            case TOOL_DENIED -> "countersign.access.denied";
            case WRITE_UNAPPROVED -> "countersign.approval.missing";
            default -> null;
        };
        if (name == null) {
            return;
        }
        String rule = event.ruleId() != null ? event.ruleId() : event.type().code();
        String reason = event.reasonCode() == null ? "" : event.reasonCode();
        measures.refused(rule, reason);
        Span span = event.runId() == null ? null : open.get(event.runId());
        if (span != null) {
            span.addEvent(name, Attributes.of(RULE, rule, REASON, reason, TOOL_NAME,
                    event.toolName() == null ? "" : event.toolName()));
        }
    }

    @Override
    public void waited(PersonWait wait) {
        Span span = tracer.spanBuilder(WAIT_SPAN).setSpanKind(SpanKind.INTERNAL)
                .setParent(Context.root().with(Span.wrap(RunTraceIds.runRoot(wait.runId()))))
                .setStartTimestamp(wait.since())
                .setAttribute(AGENT, wait.agent()).setAttribute(CONVERSATION, wait.runId())
                .setAttribute(DECISION, wait.outcome()).setAttribute(DECIDED_BY, wait.decidedBy())
                .setAttribute(APPROVALS, wait.approvals()).setAttribute(WAITED, wait.waited().toMillis())
                .startSpan();
        if (wait.deadline() != null) {
            span.setAttribute(DEADLINE, wait.deadline().toString());
            span.setAttribute(FALLBACK, wait.fallback());
        }
        span.end(wait.decidedAt());
        measures.decided(wait.outcome(), wait.waited());
    }

    private final class TracedStretch implements Stretch {
        private final String runId;
        private final Span span;
        private final Context context;

        TracedStretch(String runId, Span span) {
            this.runId = runId;
            this.span = span;
            this.context = Context.root().with(span);
        }

        @Override
        public ModelStep modelCall(String configuration, String provider, String model) {
            Span call = tracer.spanBuilder("chat " + model).setSpanKind(SpanKind.CLIENT).setParent(context)
                    .setAttribute(OPERATION, "chat").setAttribute(PROVIDER, provider)
                    .setAttribute(REQUEST_MODEL, model).setAttribute(CONFIGURATION, configuration).startSpan();
            return new ModelStep() {
                @Override
                public void answered(TokenUsage usage, String finishReason) {
                    call.setAttribute(INPUT_TOKENS, usage.promptTokens());
                    call.setAttribute(OUTPUT_TOKENS, usage.completionTokens());
                    call.setAttribute(FINISH_REASONS, List.of(finishReason));
                    call.end();
                }

                @Override
                public void failed(String reasonCode) {
                    call.setAttribute(ERROR_TYPE, reasonCode);
                    call.setStatus(StatusCode.ERROR);
                    call.end();
                }
            };
        }

        /**
         * A call its caller sent with a {@code traceparent} (a gateway's host) executes in the caller's trace, linked
         * to the run's stretch; any other in the stretch.
         */
        @Override
        public ToolStep toolCall(ToolCall toolCall, boolean remote, String callerTraceParent) {
            SpanContext caller = callerTraceParent == null ? SpanContext.getInvalid()
                    : Span.fromContext(W3CTraceContextPropagator.getInstance().extract(Context.root(),
                            Map.of("traceparent", callerTraceParent), HEADERS)).getSpanContext();
            var builder = tracer.spanBuilder("execute_tool " + toolCall.name()).setSpanKind(SpanKind.INTERNAL)
                    .setParent(caller.isValid() ? Context.root().with(Span.wrap(caller)) : context)
                    .setAttribute(OPERATION, "execute_tool")
                    .setAttribute(TOOL_NAME, toolCall.name()).setAttribute(TOOL_CALL_ID, toolCall.id())
                    .setAttribute(TOOL_TYPE, remote ? "extension" : "function");
            if (caller.isValid()) {
                builder.addLink(span.getSpanContext());
            }
            if (captureContent) {
                builder.setAttribute(TOOL_ARGUMENTS, toolCall.arguments().toString());
            }
            Span call = builder.startSpan();
            return (outcome, result) -> {
                call.setAttribute(EXECUTION, outcome);
                if (captureContent && result != null) {
                    call.setAttribute(TOOL_RESULT, result);
                }
                if (!outcome.equals("ok")) {
                    call.setAttribute(ERROR_TYPE, outcome.equals("unknown") ? "outcome_unknown" : "tool_failed");
                    call.setStatus(StatusCode.ERROR);
                }
                call.end();
                measures.executed(outcome);
            };
        }

        @Override
        public void ended(RunStatus status) {
            open.remove(runId, span);
            span.setAttribute(RUN_STATUS, status == null ? "stopped" : status.code());
            if (status == null || status == RunStatus.FAILED) {
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }
    }
}
