package io.countersign.engine.state;

import java.util.Arrays;

/** Where a run stands. */
public enum RunStatus {
    QUEUED("queued"),
    RUNNING("running"),
    WAITING_FOR_APPROVAL("waiting_for_approval"),
    WAITING_FOR_INPUT("waiting_for_input"),
    /**
     * Stopped with a call whose outcome nobody knows: never resumed on its own, never shown as running; a person
     * settles it ({@code settle --retry} or {@code --fail}).
     */
    OUTCOME_UNKNOWN("outcome_unknown"),
    COMPLETED("completed"),
    FAILED("failed"),
    CANCELLED("cancelled");

    private final String code;

    RunStatus(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    public boolean waiting() {
        return this == WAITING_FOR_APPROVAL || this == WAITING_FOR_INPUT;
    }

    public boolean finished() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }

    public static RunStatus fromCode(String code) {
        return Arrays.stream(values()).filter(s -> s.code.equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown run status \"" + code + "\""));
    }
}
