package io.countersign.engine.call;

import io.countersign.engine.Names;
import java.util.Arrays;
import java.util.Objects;

/**
 * What happened to one call: the tool (a name a model invented is recorded as {@link Names#recordedToolName}), its
 * outcome, and its target when a resolver named one.
 */
public record ToolInvocationObservation(String toolName, Outcome outcome, ToolInvocationTarget target) {
    public ToolInvocationObservation {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(outcome, "outcome");
        toolName = Names.recordedToolName(toolName);
    }

    public enum Outcome {
        OK("ok"),
        FAILED("failed"),
        CANCELLED("cancelled"),
        DENIED("denied");

        private final String code;

        Outcome(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }

        public static Outcome fromCode(String code) {
            return Arrays.stream(values()).filter(o -> o.code.equals(code)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown outcome \"" + code + "\""));
        }
    }
}
