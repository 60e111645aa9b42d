package io.countersign.service.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.run.CallerChannels;
import io.countersign.engine.run.ToolResultListener;
import io.countersign.engine.tool.CallerChannel;
import io.countersign.engine.tool.ToolResult;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The "model" of a gateway run: the MCP host. Each round hands the loop the host's next {@code tools/call} as a
 * turn of one call, and the round after it answers that call from the transcript, so every call goes through the
 * loop's approval scan, access gates, invocation rules and journal exactly as a model's would. When the host has
 * gone, the turn is a final answer and the run completes. As the loop's result listener it answers a call that
 * executed and succeeded with the server's own result (its content, not the transcript's summary) as soon as the
 * server gave it. As the loop's callers it gives the call it handed out the way back to its host.
 */
final class HostTurns implements ChatModel, ToolResultListener, CallerChannels {
    private static final String GONE = "The MCP host disconnected.";

    /** A host's call, where its answer goes, and the way back to the host while it executes. */
    record HostCall(ToolCall call, CompletableFuture<HostAnswer> answer, CallerChannel caller) {
    }

    private final LinkedBlockingQueue<HostCall> calls = new LinkedBlockingQueue<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile HostCall current;
    private volatile boolean gone;

    /**
     * Queues a host's call for the loop's next round; its answer completes with what the call came to, and its
     * call's id is the one the run's card and transcript hold; that of a call made as an MCP task says so
     * ({@link #RunRepository.TASK_CALL}).
     */
    HostCall submit(String toolName, ObjectNode arguments, CallerChannel caller, boolean asTask) {
        HostCall call = new HostCall(new ToolCall((asTask ? RunRepository.TASK_CALL : "host-") + ids.incrementAndGet(), toolName,
                arguments), new CompletableFuture<>(), caller);
        if (gone) {
            call.answer().completeExceptionally(new IllegalStateException("the host's connection is closed"));
        } else {
            calls.add(call);
        }
        return call;
    }

    /**
     * The turns of a run whose host is gone but whose call made as a task waits as a card, taken over by this
     * gateway: the run's next turn answers the call, and then ends the run.
     */
    static HostTurns adopting(HostCall task) {
        HostTurns turns = new HostTurns();
        turns.gone = true;
        turns.current = task;
        return turns;
    }

    /**
     * The host disconnected: the run's next turn ends it, and a call still open is abandoned; but not a call made
     * as a task, which its card keeps for the host to poll (see {@link #taskOpen}).
     */
    void hostGone() {
        gone = true;
        HostCall open = current;
        if (open != null && !taskOpen()) {
            open.answer().completeExceptionally(new IllegalStateException("the host disconnected"));
        }
        for (HostCall queued; (queued = calls.poll()) != null; ) {
            queued.answer().completeExceptionally(new IllegalStateException("the host disconnected"));
        }
    }

    /**
     * The host withdrew the call it made with {@code caller}: one still queued is dropped and never reaches the
     * run; the call the run holds is returned, for its card to be withdrawn. The caller's channel itself says the
     * call is withdrawn ({@link CallerChannel#withdrawn()}), so it never starts.
     */
    Optional<ToolCall> withdraw(CallerChannel caller) {
        for (HostCall queued : calls) {
            if (queued.caller() == caller && calls.remove(queued)) {
                queued.answer().completeExceptionally(new CancellationException("the host cancelled the call"));
                return Optional.empty();
            }
        }
        HostCall open = current;
        return open != null && open.caller() == caller ? Optional.of(open.call()) : Optional.empty();
    }

    boolean hostConnected() {
        return !gone;
    }

    /** True while the call handed out last was made as an MCP task and has no answer yet. */
    boolean taskOpen() {
        HostCall open = current;
        return open != null && open.call().id().startsWith(RunRepository.TASK_CALL) && !open.answer().isDone();
    }

    /**
     * The server answered the host's call: the host has its result now, while the loop goes on to record it. Its
     * intent is already durable, so a gateway stopped from here on leaves the call flagged, never sent again.
     */
    @Override
    public void executed(ToolCall call, ToolResult result, String note) {
        HostCall open = current;
        if (open != null && open.call().id().equals(call.id()) && result.serverResult() != null && !result.failed()
                && !result.outcomeUnknown()) {
            current = null;
            open.answer().complete(new HostAnswer(result.content(), false, result.serverResult(), note));
        }
    }

    /**
     * The host of the call handed out last, while that call is open; nobody for any other. The tool's early answer
     * goes to the host as the loop's own would.
     */
    @Override
    public CallerChannel forCall(ToolCall call) {
        HostCall open = current;
        return open != null && open.call().id().equals(call.id())
                ? open.caller().answeringTo(result -> executed(call, result, null)) : CallerChannel.NONE;
    }

    @Override
    public AssistantTurn complete(ChatRequest request) {
        answerCurrent(request.messages());
        try {
            while (!gone) {
                HostCall next = calls.poll(200, TimeUnit.MILLISECONDS);
                if (next != null) {
                    current = next;
                    return new AssistantTurn("", List.of(next.call()), TokenUsage.NONE);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new AssistantTurn(GONE, List.of(), TokenUsage.NONE);
    }

    /** The transcript's answer to the call handed out last, passed on to the host. */
    private void answerCurrent(List<ChatMessage> messages) {
        HostCall open = current;
        if (open == null) {
            return;
        }
        for (int i = messages.size() - 1; i >= 0; i--) {
            ChatMessage message = messages.get(i);
            if (message.role() == ChatMessage.Role.TOOL && open.call().id().equals(message.toolCallId())) {
                current = null;
                open.answer().complete(HostAnswer.of(message.content()));
                return;
            }
        }
    }
}
