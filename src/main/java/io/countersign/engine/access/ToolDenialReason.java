package io.countersign.engine.access;

/** Why an access gate kept a tool away from a model; the code is the {@code tool_denied} event's reason. */
public enum ToolDenialReason {
    NOT_REGISTERED("notRegistered"),
    TOOL_DISABLED("toolDisabled"),
    REQUIRES_ADMIN("requiresAdmin"),
    CONFIGURATION_GROUP("configurationGroup"),
    TRUST_ZONE("trustZone"),
    /** The tool passes the gates but was not offered in this round (for example, a run with no approval step). */
    NOT_OFFERED("notOffered");

    private final String code;

    ToolDenialReason(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
