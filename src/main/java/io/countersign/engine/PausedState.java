package io.countersign.engine;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Everything a paused run needs to resume in another process, after a restart: the transcript ending with the
 * paused assistant turn, the turn's calls in order, the counters, the offered tool names and the model of the
 * round (it decides the trust zone when the offered set is recomputed), the options, the typed fields of an input pause, the invocation history and who the run acts for.
 * {@link PausedStateCodec} turns it into JSON and back, refusing a damaged state.
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
        transcript = List.copyOf(transcript);
        calls = List.copyOf(calls);
        offeredTools = List.copyOf(offeredTools);
        inputFields = List.copyOf(inputFields);
        checkConsistent(status, transcript, calls, inputFields);
    }

    /** The calls that wait for an operator's verdict. */
    public List<PendingCall> awaitingApproval() {
        return calls.stream().filter(c -> c.disposition() == PendingCall.Disposition.AWAITS_APPROVAL).toList();
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
}
