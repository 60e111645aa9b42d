package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.tool.CallerChannel;
import java.util.concurrent.CompletableFuture;

/**
 * The way back to the host of a call it made as an MCP task: none while it executes, as the host polls the task
 * instead of holding the request open; a server's question during the call is not passed on (MCP routes those
 * through {@code tasks/result}, which the gateway does not). The host may withdraw it ({@code tasks/cancel}).
 */
final class TaskChannel implements CallerChannel {
    private volatile boolean withdrawn;

    /** The host cancelled the task: from now on its call must not start. */
    void withdraw() {
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
        // a task's host polls its status instead
    }

    @Override
    public void log(JsonNode message) {
        // no request of the host's is open to relate it to
    }

    @Override
    public boolean answers(Request kind) {
        return false;
    }

    @Override
    public CompletableFuture<JsonNode> ask(Request kind, JsonNode params) {
        return CallerChannel.NONE.ask(kind, params);
    }
}
