package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.tool.WithdrawableCaller;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The host's tool calls made as MCP tasks, in the experimental tasks utility of MCP revision 2025-11-25, as the
 * TypeScript SDK's client speaks it: a {@code tools/call} with a {@code task} field is answered at once with the
 * task, and the host polls it with {@code tasks/get}, gets its result with {@code tasks/result} (which waits until
 * the call came to something), lists them with {@code tasks/list} and cancels one with {@code tasks/cancel}. A
 * task is its call's card: {@code working} while the card waits for a person and while the call executes,
 * {@code completed} with the tool's result, {@code failed} with a refusal, a denial or a failure (whose result the
 * host still gets), {@code cancelled} once the host withdrew it, through the same claim a person's decision makes.
 *
 * <p>The SDK has no tasks: these requests are answered here, before it sees them, over stdio and HTTP alike. Every
 * session of a gateway serves the same profile as the same person (the HTTP listener's bearer token), so a host
 * that reconnects sees the tasks it made before; another gateway never does. A task outlives the session that made
 * it; one whose card still waits outlives the gateway too, and the next gateway of the profile serves it
 * ({@link #adopt}).
 */
final class HostTasks implements AnsweredHere {
    private static final Logger LOG = Logger.getLogger(HostTasks.class.getName());
    static final String GET = "tasks/get";
    static final String RESULT = "tasks/result";
    static final String LIST = "tasks/list";
    static final String CANCEL = "tasks/cancel";
    /** The {@code _meta} key that ties a message to its task. */
    static final String RELATED_TASK = "io.modelcontextprotocol/related-task";
    /** How often a host is asked to poll a task's status. */
    static final Duration POLL_INTERVAL = Duration.ofSeconds(1);
    /** What the gateway tells a host when one of its tasks changed status; MCP leaves it to the receiver. */
    static final String STATUS = "notifications/tasks/status";

    /** Starts a host's call of a tool by the name the host sees it under, as a task. */
    interface Starter {
        /** The call handed to its run, or empty when the gateway offers no tool of that name. */
        Optional<Started> start(String sessionId, String toolName, ObjectNode arguments, WithdrawableCaller channel);
    }

    /**
     * A call made as a task: the connection that withdraws it, the tool's registry name (the task's id for one taken
     * over), and the task.
     */
    record Started(GatewayBackend.Connection connection, String registryName, GatewayBackend.Task task) {
    }

    /** What the store recorded of a task's call, for a task no gateway holds now. */
    interface Records {
        Optional<GatewayBackend.Recorded> recorded(String taskId);
    }

    /** Sends a notification to a host's session; one the host closed takes none, and that is no error. */
    interface Notifier {
        void notify(String sessionId, String method, ObjectNode params);
    }

    private final Starter starter;
    private final Records records;
    private final Notifier notifier;
    private final Clock clock;
    private final Map<String, Task> tasks = new ConcurrentHashMap<>();

    /**
     * @param records  serves a task whose gateway stopped after its call was answered, from what the store recorded
     * @param notifier tells the session that made a task when its status changed ({@value #STATUS})
     */
    HostTasks(Starter starter, Records records, Notifier notifier, Clock clock) {
        this.starter = starter;
        this.records = records;
        this.notifier = notifier;
        this.clock = clock;
    }

    /** The MCP methods answered here: the tasks methods, and a {@code tools/call} with a {@code task}. */
    static boolean handles(String method, JsonNode params) {
        return GET.equals(method) || RESULT.equals(method) || LIST.equals(method) || CANCEL.equals(method)
                || McpSchema.METHOD_TOOLS_CALL.equals(method) && params != null && params.get("task") != null;
    }

    /**
     * The JSON-RPC response to a request of the host's session answered here ({@link #handles}); empty for any
     * other message. It completes at once, except for {@code tasks/result} of a task still working.
     */
    @Override
    public Optional<CompletableFuture<ObjectNode>> answer(String sessionId, HostMessage.Accepted message) {
        if (message.id() == null || !handles(message.method(), message.params())) {
            return Optional.empty();
        }
        JsonNode id = message.id();
        ObjectNode params = message.params() == null ? Json.mapper().createObjectNode() : message.params();
        forgetExpired();
        if (McpSchema.METHOD_TOOLS_CALL.equals(message.method())) {
            return Optional.of(CompletableFuture.completedFuture(create(sessionId, id, params)));
        }
        if (LIST.equals(message.method())) {
            ObjectNode result = Json.mapper().createObjectNode();
            tasks.values().stream().sorted(Comparator.comparing(task -> task.created))
                    .forEach(task -> result.withArray("tasks").add(task.json()));
            result.withArray("tasks");
            return Optional.of(CompletableFuture.completedFuture(AnsweredHere.response(id, result)));
        }
        String taskId = params.path("taskId").asText();
        Task task = tasks.computeIfAbsent(taskId, this::recorded);
        if (task == null) {
            return Optional.of(CompletableFuture.completedFuture(JsonRpcErrors.error(id,
                    McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params: no task \"" + taskId + "\" of this"
                            + " gateway's profile; its result may have expired, or another profile or person made it")));
        }
        return Optional.of(switch (message.method()) {
            case GET -> CompletableFuture.completedFuture(AnsweredHere.response(id, task.json()));
            case CANCEL -> CompletableFuture.completedFuture(cancel(id, task));
            default -> task.answer.handle((answer, failure) -> AnsweredHere.response(id,
                    task.result(answer, failure)));
        });
    }

    private ObjectNode create(String sessionId, JsonNode id, ObjectNode params) {
        String name = params.path("name").asText();
        ObjectNode arguments = params.get("arguments") instanceof ObjectNode given ? given
                : Json.mapper().createObjectNode();
        JsonNode ttl = params.path("task").path("ttl");
        JsonNode traceParent = params.path("_meta").path("traceparent");
        JsonNode token = params.path("_meta").get("progressToken");
        TaskChannel channel = new TaskChannel(traceParent.isTextual() ? traceParent.asText() : null, sessionId,
                token != null && (token.isTextual() || token.isIntegralNumber()) ? token : null, notifier);
        Optional<Started> started;
        try {
            started = starter.start(sessionId, name, arguments, channel);
        } catch (RuntimeException e) {
            return JsonRpcErrors.error(id, McpSchema.ErrorCodes.INTERNAL_ERROR, "Internal error: the call of " + name
                    + " could not start: " + e.getMessage());
        }
        if (started.isEmpty()) {
            return JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_PARAMS, "Unknown tool: " + name);
        }
        channel.task(started.get().task().id());
        Task task = new Task(started.get(), channel, sessionId, clock.instant(), ttl.isNumber() ? ttl.longValue()
                : null);
        tasks.put(task.id, task);
        task.answer.whenComplete((answer, failure) -> finished(task));
        ObjectNode result = Json.mapper().createObjectNode();
        result.set("task", task.json());
        return AnsweredHere.response(id, result);
    }

    /**
     * A task this gateway does not hold, as the store recorded its call's answer: a gateway that served it stopped
     * after the call was answered. Null when there is no such record.
     */
    private Task recorded(String taskId) {
        Optional<GatewayBackend.Recorded> recorded;
        try {
            recorded = records.recorded(taskId);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the store's record of task " + taskId + " could not be read: " + e.getMessage(), e);
            return null;
        }
        return recorded.map(found -> {
            Task task = new Task(new Started(null, taskId, new GatewayBackend.Task(taskId,
                    CompletableFuture.completedFuture(found.answer()))), null, null, found.created(), null);
            task.updated = found.updated();
            task.cancelled = found.cancelled();
            return task;
        }).orElse(null);
    }

    /**
     * Serves the tasks a stopped gateway left waiting, taken over by this one: a host that reconnects polls them by
     * the ids it was given. Each one's run ends once its call came to something.
     */
    void adopt(List<GatewayBackend.Adopted<WithdrawableCaller>> adopted) {
        for (GatewayBackend.Adopted<WithdrawableCaller> each : adopted) {
            // the session that made it is gone with the gateway that served it: nobody to notify
            Task task = new Task(new Started(each.connection(), each.task().id(), each.task()), each.channel(), null,
                    each.waitingSince() == null ? clock.instant() : each.waitingSince(), null);
            tasks.put(task.id, task);
            task.answer.whenComplete((answer, failure) -> finished(task));
            settled(each.connection()).whenCompleteAsync((ignored, failure) -> each.connection().close());
        }
    }

    /**
     * Withdraws a task that has not come to anything yet: its card leaves the inbox through the claim a decision
     * makes, or, decided but not started, it never starts. One that has is refused, as MCP asks.
     */
    private ObjectNode cancel(JsonNode id, Task task) {
        synchronized (task) {
            String status = task.status();
            if (!status.equals("working")) {
                return JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params: task \""
                        + task.id + "\" is already " + status + " and cannot be cancelled");
            }
            task.cancelled = true;
            task.updated = clock.instant();
        }
        task.channel.withdraw();
        task.started.connection().withdraw(task.channel);
        statusChanged(task);
        return AnsweredHere.response(id, task.json());
    }

    /** The task's call came to something: unless the host cancelled it first, it is now completed or failed. */
    private void finished(Task task) {
        synchronized (task) {
            if (task.cancelled) {
                return;
            }
            task.updated = clock.instant();
        }
        statusChanged(task);
    }

    private void statusChanged(Task task) {
        if (task.sessionId == null) {
            return;
        }
        try {
            notifier.notify(task.sessionId, STATUS, task.json());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "a task's status did not reach its host: " + e.getMessage(), e);
        }
    }

    /** The tasks not yet come to anything that the connection's run carries: it may end once they have. */
    CompletableFuture<Void> settled(GatewayBackend.Connection connection) {
        CompletableFuture<?>[] open = tasks.values().stream()
                .filter(task -> task.started.connection() == connection).map(task -> task.answer)
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(open).handle((ignored, failure) -> null);
    }

    /**
     * The gateway stops: the runs of tasks still working end their drive here, their cards left waiting for a
     * gateway of the same profile to take over.
     */
    void gatewayStopped() {
        tasks.values().stream().filter(task -> !task.answer.isDone()).map(task -> task.started.connection())
                .distinct().forEach(GatewayBackend.Connection::close);
    }

    /** Drops the tasks that came to something longer ago than the time to live their host asked for. */
    private void forgetExpired() {
        Instant now = clock.instant();
        tasks.values().removeIf(task -> task.ttl != null && task.answer.isDone()
                && task.created.plusMillis(task.ttl).isBefore(now));
    }

    /** One task: its call, and what the host asked of it. */
    private static final class Task {
        final String id;
        final Started started;
        final WithdrawableCaller channel;
        /** The host's session that made it; null for one taken over from a stopped gateway. */
        final String sessionId;
        final CompletableFuture<GatewayBackend.Answer> answer;
        final Instant created;
        final Long ttl;
        volatile Instant updated;
        volatile boolean cancelled;

        Task(Started started, WithdrawableCaller channel, String sessionId, Instant created, Long ttl) {
            this.id = started.task().id();
            this.started = started;
            this.channel = channel;
            this.sessionId = sessionId;
            this.answer = started.task().answer();
            this.created = created;
            this.updated = created;
            this.ttl = ttl;
        }

        String status() {
            if (cancelled) {
                return "cancelled";
            }
            if (!answer.isDone()) {
                return "working";
            }
            return answer.isCompletedExceptionally() || answer.join().error() ? "failed" : "completed";
        }

        ObjectNode json() {
            ObjectNode json = Json.mapper().createObjectNode().put("taskId", id).put("status", status());
            String message = message();
            if (message != null) {
                json.put("statusMessage", message);
            }
            json.put("createdAt", created.toString()).put("lastUpdatedAt", updated.toString());
            if (ttl == null) {
                json.putNull("ttl");
            } else {
                json.put("ttl", ttl);
            }
            return json.put("pollInterval", POLL_INTERVAL.toMillis());
        }

        private String message() {
            if (cancelled) {
                return "the host cancelled this call";
            }
            if (!answer.isDone()) {
                return started.connection().waiting();
            }
            if (answer.isCompletedExceptionally()) {
                return "the call came to no answer: the host's run ended before it";
            }
            GatewayBackend.Answer done = answer.join();
            return done.error() ? JsonRpcErrors.clean(McpSchema.ErrorCodes.INTERNAL_ERROR, done.text()) : null;
        }

        /** The call's result as a {@code tools/call} would have answered it, tied to this task. */
        ObjectNode result(GatewayBackend.Answer done, Throwable failure) {
            McpSchema.CallToolResult result = failure == null ? McpGateway.result(done)
                    : McpGateway.failed(started.registryName(), failure);
            ObjectNode json = McpJsonDefaults.getMapper().convertValue(result, ObjectNode.class);
            json.putObject("_meta").putObject(RELATED_TASK).put("taskId", id);
            return json;
        }
    }
}
