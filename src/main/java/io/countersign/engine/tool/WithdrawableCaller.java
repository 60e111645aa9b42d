package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletableFuture;

/**
 * A call's way back to a caller that hears nothing and answers nothing, as {@link CallerChannel#NONE}, but that may
 * give the call up: a host that made it an MCP task and polls it instead of holding a request open, and later
 * cancels it. A server's question during such a call is not passed on; its progress and log messages are
 * dropped here, and a subclass may relay them where the caller listens otherwise.
 */
public class WithdrawableCaller implements CallerChannel {
    private final String traceParent;
    private volatile boolean withdrawn;

    /** A caller that sent no trace context. */
    public WithdrawableCaller() {
        this(null);
    }

    /** A caller that sent its W3C {@code traceparent} with the call (null when it sent none). */
    public WithdrawableCaller(String traceParent) {
        this.traceParent = traceParent;
    }

    @Override
    public String traceParent() {
        return traceParent;
    }

    /** The caller gave the call up: from now on it must not start. */
    public void withdraw() {
        withdrawn = true;
    }

    @Override
    public boolean withdrawn() {
        return withdrawn;
    }

    @Override
    public boolean wantsProgress() {
        return false;
    }

    @Override
    public void progress(double progress, Double total, String message) {
        // the caller polls the call's status instead
    }

    @Override
    public void log(JsonNode message) {
        // no request of the caller's is open to relate it to
    }

    @Override
    public boolean answers(Request kind) {
        return false;
    }

    @Override
    public CompletableFuture<JsonNode> ask(Request kind, JsonNode params) {
        return NONE.ask(kind, params);
    }
}
