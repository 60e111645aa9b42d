package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The way back to whoever made a call, while the call executes: an MCP host behind the gateway hears the progress
 * and log messages of the server that carries the call out, and answers that server's requests (a completion from
 * its model, a question to its user). A tool reaches it only through the {@link ToolCallRequest} of a call that
 * passed every check, so nothing here can happen outside an already-permitted call. The content passes through;
 * none of it is recorded.
 */
public interface CallerChannel {
    /** A caller that hears nothing and answers nothing: a model, or a host that is gone. */
    CallerChannel NONE = new CallerChannel() {
        @Override
        public boolean wantsProgress() {
            return false;
        }

        @Override
        public void progress(double progress, Double total, String message) {
        }

        @Override
        public void log(JsonNode message) {
        }

        @Override
        public boolean answers(Request kind) {
            return false;
        }

        @Override
        public CompletableFuture<JsonNode> ask(Request kind, JsonNode params) {
            return CompletableFuture.failedFuture(new IllegalStateException("the caller of this call cannot answer "
                    + kind.method()));
        }
    };

    /** What a server may ask the caller during a call, by its MCP method. */
    enum Request {
        SAMPLING("sampling/createMessage"),
        ELICITATION("elicitation/create");

        private final String method;

        Request(String method) {
            this.method = method;
        }

        public String method() {
            return method;
        }
    }

    /** True when the caller asked to hear the call's progress. */
    boolean wantsProgress();

    /** The call got this far ({@code total} and {@code message} may be null); heard only when it wants progress. */
    void progress(double progress, Double total, String message);

    /**
     * A log message of the server carrying the call out, as the params of MCP's {@code notifications/message}
     * ({@code level}, {@code logger}, {@code data}); the caller hears it at or above the level it asked for.
     */
    void log(JsonNode message);

    /** True when the caller declared it can answer {@code kind}. */
    boolean answers(Request kind);

    /**
     * Asks the caller, with the request's params as MCP spells them; completes with its result as MCP spells it,
     * or exceptionally with the reason it gave none. Never blocks.
     */
    CompletableFuture<JsonNode> ask(Request kind, JsonNode params);

    /**
     * True once the caller gave the call up (an MCP host sent {@code notifications/cancelled}, or its request
     * closed): a call not yet started is then never started, whatever was decided on it.
     */
    default boolean withdrawn() {
        return false;
    }

    /**
     * The call's result, as soon as its tool has it, on whichever thread it arrived, before the run goes on to
     * record it; told at most once, and not at all by a tool that cannot tell early. A gateway's host gets its
     * answer from here without waiting for the run's thread to wake.
     */
    default void answered(ToolResult result) {
    }

    /**
     * The W3C {@code traceparent} the caller sent with its call (an MCP host's {@code _meta}), whose trace the
     * call's execution continues; {@code null} when it sent none.
     */
    default String traceParent() {
        return null;
    }

    /** This channel, with {@code answered} told to {@code whom} instead. */
    default CallerChannel answeringTo(Consumer<ToolResult> whom) {
        CallerChannel relay = this;
        return new CallerChannel() {
            @Override
            public boolean wantsProgress() {
                return relay.wantsProgress();
            }

            @Override
            public void progress(double progress, Double total, String message) {
                relay.progress(progress, total, message);
            }

            @Override
            public void log(JsonNode message) {
                relay.log(message);
            }

            @Override
            public boolean answers(Request kind) {
                return relay.answers(kind);
            }

            @Override
            public CompletableFuture<JsonNode> ask(Request kind, JsonNode params) {
                return relay.ask(kind, params);
            }

            @Override
            public boolean withdrawn() {
                return relay.withdrawn();
            }

            @Override
            public String traceParent() {
                return relay.traceParent();
            }

            @Override
            public void answered(ToolResult result) {
                whom.accept(result);
            }
        };
    }
}
