package io.countersign.engine.declarative;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A call a run's model asked for, as its stored transcript and history keep it: what a what-if evaluates a rule on.
 *
 * @param runId     the run
 * @param agent     its agent (or gateway profile)
 * @param person    who the run acts for
 * @param at        when the run was last updated (the calls of a run share it)
 * @param tool      the tool asked for
 * @param arguments the arguments the model gave
 * @param target    the target the history recorded for it, or {@code null}
 * @param before    the run's history before this call
 */
public record RecordedCall(String runId, String agent, String person, Instant at, String tool, ObjectNode arguments,
                           ToolInvocationTarget target, List<ToolInvocationObservation> before) {
    public RecordedCall {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(person, "person");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(arguments, "arguments");
        before = List.copyOf(before);
    }
}
