package io.countersign.engine.declarative;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a rule's condition sees of one call, by the names the condition uses. Text a call does not have is empty
 * ({@code server} of a local tool, {@code target.kind} when no resolver named one), never missing.
 *
 * @param tool      the tool's name
 * @param server    the remote server the tool came from, or empty for a local tool
 * @param args      the call's final arguments
 * @param target    the target a resolver named, or {@code null}
 * @param agent     the agent's (or gateway profile's) name
 * @param person    who the run acts for
 * @param roles     that person's roles, lower case
 * @param dataClass the tool's data class code ({@code sourceCode}, …), or empty for an unknown tool
 * @param trustZone the trust zone code of the model in use
 * @param effect    {@code read} or {@code write}, or empty for an unknown tool
 * @param now       when the call is judged
 * @param history   the run's calls so far
 */
public record CallFacts(String tool, String server, ObjectNode args, ToolInvocationTarget target, String agent,
                        String person, List<String> roles, String dataClass, String trustZone, String effect,
                        Instant now, List<ToolInvocationObservation> history) {
    /** The names a condition may use, in the order they are listed to a person. */
    public static final List<String> FIELDS = List.of("tool", "server", "args", "target.kind", "target.id", "agent",
            "person", "roles", "dataClass", "trustZone", "effect", "now", "history");

    public CallFacts {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(person, "person");
        roles = List.copyOf(roles);
        Objects.requireNonNull(dataClass, "dataClass");
        Objects.requireNonNull(trustZone, "trustZone");
        Objects.requireNonNull(effect, "effect");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(history, "history");
    }
}
