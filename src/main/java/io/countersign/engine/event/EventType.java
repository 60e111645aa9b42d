package io.countersign.engine.event;

import java.util.Arrays;

/** The kinds of governance event. */
public enum EventType {
    /** An access gate kept a tool out of the offered set, or refused a call of it. */
    TOOL_DENIED("tool_denied"),
    /** An invocation rule refused a call. */
    INVOCATION_DENIED("invocation_denied"),
    /** An approval-bound call reached execution without an approval and was refused. */
    WRITE_UNAPPROVED("write_unapproved"),
    /** An operator decided an approval card (verdicts in the detail, never arguments). */
    APPROVAL_DECIDED("approval_decided"),
    /** A person submitted typed input (never the values). */
    INPUT_SUBMITTED("input_submitted"),
    /**
     * A tool asked the person behind a run for typed input during a call (an MCP server's elicitation); the reason
     * is the answer (accept, decline, cancel), the detail names the fields, never the values.
     */
    INPUT_ELICITED("input_elicited"),
    /** No one decided a card before its deadline: the fallback (deny or cancel, the reason code) was applied. */
    APPROVAL_EXPIRED("approval_expired"),
    /** No one decided a card before its deadline: it was escalated, and its deadline moved once. */
    APPROVAL_ESCALATED("approval_escalated"),
    /** A person moved a card's deadline once by its span. */
    DEADLINE_EXTENDED("deadline_extended"),
    /** A call that needs approval ran without a pause on a person's standing grant (the grant's id in the detail). */
    APPROVED_BY_GRANT("approved_by_grant"),
    /** A person made a standing grant from a card (its id, span and kind of scope in the detail, never arguments). */
    GRANT_MADE("grant_made"),
    /** A person revoked a standing grant (its id in the detail). */
    GRANT_REVOKED("grant_revoked"),
    /**
     * A person approved a card that needs more than one approval, and the card waits for the others; the last
     * approval is an {@link #APPROVAL_DECIDED}.
     */
    APPROVAL_COUNTED("approval_counted"),
    /**
     * A card ended without a decision because the caller gave its call up (an MCP host cancelled it; reason
     * {@code host_cancelled}): nothing of it executed.
     */
    CALL_WITHDRAWN("call_withdrawn"),
    /**
     * A host behind the gateway read a fronted server's resource (the tool name is the server's; never the URI or
     * the content).
     */
    RESOURCE_READ("resource_read"),
    /**
     * A host behind the gateway got a fronted server's prompt (the tool name is the server's, the detail the
     * prompt's name; never its arguments or messages).
     */
    PROMPT_USED("prompt_used"),
    /**
     * A host behind the gateway subscribed to updates of a fronted server's resource (the tool name is the server's;
     * never the URI).
     */
    RESOURCE_SUBSCRIBED("resource_subscribed"),
    /** A host behind the gateway ended its subscription to a fronted server's resource (never the URI). */
    RESOURCE_UNSUBSCRIBED("resource_unsubscribed"),
    /**
     * A host behind the gateway asked a fronted server to complete an argument (the detail the prompt's name, none
     * for a resource template; never the argument's value or the completions).
     */
    COMPLETION_ASKED("completion_asked");

    private final String code;

    EventType(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    public static EventType fromCode(String code) {
        return Arrays.stream(values()).filter(t -> t.code.equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown event type \"" + code + "\""));
    }
}
