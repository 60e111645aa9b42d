package io.countersign.engine.state;

import io.countersign.engine.Actor;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.InputField;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Everything a paused run needs to resume in another process, after a restart: the transcript ending with the
 * paused assistant turn, the turn's calls in order, the counters, the offered tool names and the model of the
 * round (it decides the trust zone when the offered set is recomputed), the options, the typed fields of an
 * input pause, the invocation history and who the run acts for. {@link PausedStateCodec} turns it into JSON and
 * back, refusing a damaged state. Build one with {@link #builder()}, or change one with {@link #toBuilder()}, so
 * that each call site names what it sets.
 */
public record PausedState(String runId, RunStatus status, String agentConfiguration, ModelConfiguration model,
                          List<ChatMessage> transcript, List<PendingCall> calls, RunCounters counters,
                          List<String> offeredTools, RunOptions options, List<InputField> inputFields,
                          ToolInvocationHistory history, Actor initiatingActor, Actor actingUser, Locale locale) {
    public PausedState {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(agentConfiguration, "agentConfiguration");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(counters, "counters");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(initiatingActor, "initiatingActor");
        Objects.requireNonNull(actingUser, "actingUser");
        Objects.requireNonNull(locale, "locale");
        Objects.requireNonNull(transcript, "transcript");
        Objects.requireNonNull(calls, "calls");
        Objects.requireNonNull(offeredTools, "offeredTools");
        Objects.requireNonNull(inputFields, "inputFields");
        transcript = List.copyOf(transcript);
        calls = List.copyOf(calls);
        offeredTools = List.copyOf(offeredTools);
        inputFields = List.copyOf(inputFields);
        checkConsistent(status, transcript, calls, inputFields);
    }

    /** An empty builder; an approval pause may leave out the input fields, every other component is required. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this state's components, to change some of them. */
    public Builder toBuilder() {
        return new Builder().runId(runId).status(status).agentConfiguration(agentConfiguration).model(model)
                .transcript(transcript).calls(calls).counters(counters).offeredTools(offeredTools).options(options)
                .inputFields(inputFields).history(history).initiatingActor(initiatingActor).actingUser(actingUser)
                .locale(locale);
    }

    /** The calls that wait for an operator's verdict. */
    public List<PendingCall> awaitingApproval() {
        return calls.stream().filter(c -> c.disposition() == PendingCall.Disposition.AWAITS_APPROVAL).toList();
    }

    /**
     * A denial of every call that waits for approval, by {@code decidedBy} at {@code at}, on this card: what a
     * deadline, a gone host or a host's cancellation decides in place of a person.
     */
    public Decision.Approval denyAll(String decidedBy, Instant at, String reason) {
        return Decision.approval(runId, decidedBy, at, digest(),
                awaitingApproval().stream().map(call -> Decision.CallVerdict.deny(call.index(), reason)).toList());
    }

    /** The calls a pre-approval rule already refused; they stay on the card with their explanation. */
    public List<PendingCall> refused() {
        return calls.stream().filter(c -> c.disposition() == PendingCall.Disposition.REFUSED).toList();
    }

    /** The call that waits for typed input, on an input pause. */
    public PendingCall inputCall() {
        return calls.stream().filter(c -> c.disposition() == PendingCall.Disposition.AWAITS_INPUT).findFirst()
                .orElseThrow(() -> new IllegalStateException("run " + runId + " does not wait for input"));
    }

    /**
     * The names of the tools the run waits on, in call order: the calls awaiting approval, or the input form.
     */
    public List<String> waitingToolNames() {
        List<PendingCall> waiting = status == RunStatus.WAITING_FOR_APPROVAL ? awaitingApproval()
                : List.of(inputCall());
        return waiting.stream().map(call -> call.call().name()).toList();
    }

    /** The model's last words before the pause (the paused assistant turn's text). */
    public String lastAssistantMessage() {
        return transcript.get(transcript.size() - 1).content();
    }

    /** A digest of what a person is shown for this pause; a decision made on another digest is stale. */
    public String digest() {
        return PausedStateCodec.digest(this);
    }

    public ToolExecutionContext executionContext() {
        return new ToolExecutionContext(initiatingActor, actingUser, runId, locale, null);
    }

    private static void checkConsistent(RunStatus status, List<ChatMessage> transcript, List<PendingCall> calls,
                                        List<InputField> inputFields) {
        if (!status.waiting()) {
            throw new IllegalArgumentException("a paused state must be waiting, not " + status.code());
        }
        if (transcript.isEmpty() || transcript.get(transcript.size() - 1).role() != ChatMessage.Role.ASSISTANT) {
            throw new IllegalArgumentException("the transcript of a paused state must end with the assistant turn");
        }
        List<ToolCall> asked = transcript.get(transcript.size() - 1).toolCalls();
        if (asked.size() != calls.size()) {
            throw new IllegalArgumentException("the paused turn asked for " + asked.size() + " calls but "
                    + calls.size() + " are pending");
        }
        for (int i = 0; i < calls.size(); i++) {
            PendingCall call = calls.get(i);
            if (call.index() != i) {
                throw new IllegalArgumentException("pending call " + i + " carries index " + call.index());
            }
            if (!call.call().id().equals(asked.get(i).id())) {
                throw new IllegalArgumentException("pending call " + i + " has id \"" + call.call().id()
                        + "\" but the turn asked for \"" + asked.get(i).id() + "\"");
            }
        }
        long awaitingApproval = calls.stream()
                .filter(c -> c.disposition() == PendingCall.Disposition.AWAITS_APPROVAL).count();
        long awaitingInput = calls.stream()
                .filter(c -> c.disposition() == PendingCall.Disposition.AWAITS_INPUT).count();
        if (status == RunStatus.WAITING_FOR_APPROVAL && (awaitingApproval == 0 || awaitingInput > 0)) {
            throw new IllegalArgumentException("an approval pause needs at least one call that awaits approval"
                    + " and none that awaits input");
        }
        if (status == RunStatus.WAITING_FOR_INPUT) {
            if (awaitingInput != 1 || awaitingApproval > 0) {
                throw new IllegalArgumentException("an input pause needs exactly one call that awaits input"
                        + " and none that awaits approval");
            }
            if (inputFields.isEmpty()) {
                throw new IllegalArgumentException("an input pause needs the input tool's fields");
            }
        }
    }

    /** Names each component as it is set; {@link #build()} checks the whole as the constructor does. */
    public static final class Builder {
        private String runId;
        private RunStatus status;
        private String agentConfiguration;
        private ModelConfiguration model;
        private List<ChatMessage> transcript;
        private List<PendingCall> calls;
        private RunCounters counters;
        private List<String> offeredTools;
        private RunOptions options;
        private List<InputField> inputFields = List.of();
        private ToolInvocationHistory history;
        private Actor initiatingActor;
        private Actor actingUser;
        private Locale locale;

        private Builder() {
        }

        public Builder runId(String value) {
            this.runId = value;
            return this;
        }

        public Builder status(RunStatus value) {
            this.status = value;
            return this;
        }

        public Builder agentConfiguration(String value) {
            this.agentConfiguration = value;
            return this;
        }

        public Builder model(ModelConfiguration value) {
            this.model = value;
            return this;
        }

        public Builder transcript(List<ChatMessage> value) {
            this.transcript = value;
            return this;
        }

        public Builder calls(List<PendingCall> value) {
            this.calls = value;
            return this;
        }

        public Builder counters(RunCounters value) {
            this.counters = value;
            return this;
        }

        public Builder offeredTools(List<String> value) {
            this.offeredTools = value;
            return this;
        }

        public Builder options(RunOptions value) {
            this.options = value;
            return this;
        }

        public Builder inputFields(List<InputField> value) {
            this.inputFields = value;
            return this;
        }

        public Builder history(ToolInvocationHistory value) {
            this.history = value;
            return this;
        }

        public Builder initiatingActor(Actor value) {
            this.initiatingActor = value;
            return this;
        }

        public Builder actingUser(Actor value) {
            this.actingUser = value;
            return this;
        }

        public Builder locale(Locale value) {
            this.locale = value;
            return this;
        }

        public PausedState build() {
            return new PausedState(runId, status, agentConfiguration, model, transcript, calls, counters,
                    offeredTools, options, inputFields, history, initiatingActor, actingUser, locale);
        }
    }
}
