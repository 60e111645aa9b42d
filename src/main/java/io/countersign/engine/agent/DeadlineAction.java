package io.countersign.engine.agent;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What happens to a waiting run when no one decided before its deadline. */
public enum DeadlineAction {
    /** The waiting calls are declined, and the model continues from the refusals as from any denial. */
    DENY("deny"),
    /** The run ends as cancelled. */
    CANCEL("cancel"),
    /** The card is marked escalated and the deadline extends once by the same span; then it is denied. */
    ESCALATE("escalate");

    private final String code;

    DeadlineAction(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /**
     * @param field where the value was given, named in the error
     * @throws IllegalArgumentException naming the field and the value when no action has that code
     */
    public static DeadlineAction fromCode(String field, String code) {
        return Arrays.stream(values()).filter(action -> action.code.equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(field + " must be one of "
                        + Arrays.stream(values()).map(DeadlineAction::code).collect(Collectors.joining(", "))
                        + ", got \"" + code + "\""));
    }
}
