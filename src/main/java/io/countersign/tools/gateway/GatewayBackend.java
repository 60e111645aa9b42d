package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.event.EventType;
import io.countersign.engine.tool.CallerChannel;
import io.countersign.engine.tool.Tool;
import io.countersign.tools.mcp.ServerFeatures;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Port: what the MCP server side of the gateway serves a host from. The tools a profile offers through the access
 * gates, and one connection per host whose calls go through the approval rule, the invocation rules and the cards.
 */
public interface GatewayBackend {

    /** The tools offered now, each refused one recorded as a {@code tool_denied} event. */
    List<Tool> offered();

    /** The names {@link #offered} would give now, recording nothing. */
    List<String> offerable();

    /**
     * The connected servers whose tools are offered now, with their resources and prompts: a profile that does not
     * offer a server's tools does not offer what else it has.
     */
    List<ServerFeatures> servers();

    /** A host connected, telling who it is ({@code clientInfo}'s name and version). */
    Connection connect(String host);

    /**
     * Takes over the cards a stopped gateway of the same profile and person left waiting on calls made as MCP
     * tasks, each with a connection of its own that carries its run on until the call came to something; the
     * call's way back to its host is a channel from {@code channels}.
     */
    <C extends CallerChannel> List<Adopted<C>> adoptTasks(Supplier<C> channels);

    /** A task taken over from a stopped gateway: its run's connection, the task, its channel, since when it waits. */
    record Adopted<C extends CallerChannel>(Connection connection, Task task, C channel, Instant waitingSince) {
    }

    /**
     * What a task's call came to as the store recorded it, for a task whose gateway stopped after its call was
     * answered; empty for one of another profile or person, or with no recorded answer.
     */
    Optional<Recorded> recordedTask(String taskId);

    /**
     * A task's call as its run recorded it: the answer (text only: the server's own result is not kept), whether the
     * host cancelled it, and when its run began and was last written (the task's own times are not kept).
     */
    record Recorded(Answer answer, boolean cancelled, Instant created, Instant updated) {
    }

    /** Tells the listener when the offered tools may have changed: a server record or a setting changed. */
    AutoCloseable onToolsChange(Runnable listener);

    /** One host's connection; closing it says the host went away. */
    interface Connection extends AutoCloseable {
        /**
         * Hands a host's call of a tool (by its registry name) to its run. The future completes with what it came
         * to, or exceptionally, with the reason, when the run ended or the connection closed before an answer.
         * {@code caller} is the way back to the host while the call executes, and only then.
         */
        CompletableFuture<Answer> call(String toolName, ObjectNode arguments, CallerChannel caller);

        /**
         * Hands a host's call to its run as {@link #call} does, for a host that made it an MCP task: the task's id
         * names the run and the call its card waits on.
         */
        Task callAsTask(String toolName, ObjectNode arguments, CallerChannel caller);

        /**
         * The host gave up on the call it made with {@code caller}: a call not yet handed to the run is dropped; a
         * card it waits on ends without a decision, claimed as a decision is, so that of a person and the host
         * exactly one wins; a call decided but not started never starts. Nothing happens for a call already
         * answered.
         */
        void withdraw(CallerChannel caller);

        /**
         * The host used what the server offers beside its tools (read or subscribed to a resource, got a prompt, asked
         * for a completion): recorded for its run as {@code use}, with the prompt's name as {@code detail} where there
         * is one, never an address, an argument or content.
         */
        void used(EventType use, String server, String detail);

        /** What a call still open waits for (a person's decision, or the call itself), read now. */
        String waiting();

        @Override
        void close();
    }

    /** A call made as an MCP task: its id, and what it came to as {@link Connection#call} tells it. */
    record Task(String id, CompletableFuture<Answer> answer) {
    }

    /**
     * A call's result text; {@code error} for a refusal, a denial or a failure. {@code serverResult}, when not
     * null, is the fronted server's own {@code CallToolResult}, which the host gets instead of the text, followed
     * by {@code note} (a person changed the call's arguments before approving it) when that is not null.
     */
    record Answer(String text, boolean error, JsonNode serverResult, String note) {
    }
}
