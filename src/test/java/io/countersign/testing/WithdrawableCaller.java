package io.countersign.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.tool.CallerChannel;
import java.util.concurrent.CompletableFuture;

/**
 * A call's way back to its caller that hears nothing and answers nothing, as {@link CallerChannel#NONE}, but that
 * its caller can withdraw, as an MCP host's cancellation withdraws the gateway's channel of a call.
 */
public final class WithdrawableCaller implements CallerChannel {
    private final String traceParent;
    private volatile boolean withdrawn;

    public WithdrawableCaller() {
        this(null);
    }

    /** A caller that sent its call with this W3C {@code traceparent}. */
    public WithdrawableCaller(String traceParent) {
        this.traceParent = traceParent;
    }

    @Override
    public String traceParent() {
        return traceParent;
    }

    /** The caller gives the call up. */
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
        return NONE.ask(kind, params);
    }
}
