package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.tool.WithdrawableCaller;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * The way back to the host of a call made as an MCP task: the host may withdraw it, and while it executes the
 * fronted server's progress and log messages reach the session that made the task, each tied to the task by
 * {@code _meta} {@value HostTasks#RELATED_TASK}: progress under the {@code progressToken} the host sent with its
 * {@code tools/call} (which MCP keeps valid for the task's life), only when it sent one, and only values that
 * exceed the last one sent; log messages as the server sent them (not filtered by the level the host set, which
 * the SDK's server applies only to the requests it handles). A task taken over from a stopped gateway has no
 * session: its channel is a plain {@link WithdrawableCaller}.
 */
final class TaskChannel extends WithdrawableCaller {
    private final String sessionId;
    private final JsonNode token;
    private final HostTasks.Notifier notifier;
    /** The task's id, null until the run named it; guarded by this. */
    private String taskId;
    /** Sent by the server before the task had its id (a call needing no person starts at once); guarded by this. */
    private final List<Notification> early = new ArrayList<>();
    /** The last progress value sent; guarded by this. */
    private double sent = Double.NEGATIVE_INFINITY;

    private record Notification(String method, ObjectNode params) {
    }

    /**
     * @param sessionId the host's session that made the task, null for none
     * @param token     the host's {@code progressToken}, null when it sent none
     */
    TaskChannel(String traceParent, String sessionId, JsonNode token, HostTasks.Notifier notifier) {
        super(traceParent);
        this.sessionId = sessionId;
        this.token = token;
        this.notifier = notifier;
    }

    /** The task the call became: what its notifications are tied to, those sent before it among them. */
    synchronized void task(String id) {
        taskId = id;
        early.forEach(notification -> send(notification.method(), notification.params()));
        early.clear();
    }

    @Override
    public boolean wantsProgress() {
        return token != null && sessionId != null;
    }

    @Override
    public synchronized void progress(double progress, Double total, String message) {
        if (!wantsProgress() || progress <= sent) {
            return;
        }
        sent = progress;
        ObjectNode params = Json.mapper().createObjectNode();
        params.set("progressToken", token);
        params.put("progress", progress);
        if (total != null) {
            params.put("total", total);
        }
        if (message != null) {
            params.put("message", message);
        }
        send(McpSchema.METHOD_NOTIFICATION_PROGRESS, params);
    }

    @Override
    public synchronized void log(JsonNode message) {
        if (sessionId != null && message instanceof ObjectNode given) {
            send(McpSchema.METHOD_NOTIFICATION_MESSAGE, given.deepCopy());
        }
    }

    /** Sends the notification tied to the task, or keeps it until the task has its id; the caller holds this. */
    private void send(String method, ObjectNode params) {
        if (taskId == null) {
            early.add(new Notification(method, params));
            return;
        }
        params.withObject("_meta").putObject(HostTasks.RELATED_TASK).put("taskId", taskId);
        notifier.notify(sessionId, method, params);
    }
}
