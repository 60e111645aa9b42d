package io.countersign.service;

import io.countersign.engine.Role;
import java.util.EnumSet;
import java.util.Set;

/**
 * Every use case of the service layer and the roles that may perform it (the role table of the
 * specification). Checked in the service, whatever a screen shows or hides.
 */
public enum Operation {
    LIST_AGENTS(Role.OPERATOR, Role.SUPERVISOR, Role.ADMIN),
    IMPORT_AGENTS(Role.ADMIN),
    EXPORT_AGENTS(Role.ADMIN),
    START_RUN(Role.OPERATOR, Role.ADMIN),
    VIEW_INBOX(Role.OPERATOR, Role.ADMIN),
    DECIDE(Role.OPERATOR, Role.ADMIN),
    SUBMIT_INPUT(Role.OPERATOR, Role.ADMIN),
    VIEW_TIMELINE(Role.OPERATOR, Role.SUPERVISOR, Role.ADMIN),
    QUERY_EVENTS(Role.SUPERVISOR, Role.ADMIN),
    PURGE_EVENTS(Role.ADMIN),
    /** How long decisions take, by agent, tool and operator, and the cards waiting now by age. */
    VIEW_DECISION_STATS(Role.SUPERVISOR, Role.ADMIN),
    /** Walking the audit chain over events, decisions and purges, and reading its head. */
    VERIFY_AUDIT(Role.SUPERVISOR, Role.ADMIN),
    VIEW_TOOL_SETTINGS(Role.ADMIN),
    CHANGE_TOOL_SETTINGS(Role.ADMIN),
    VIEW_SETTING_CHANGES(Role.SUPERVISOR, Role.ADMIN),
    /** The MCP server records; supervisors see their recorded changes through {@link #VIEW_SETTING_CHANGES}. */
    VIEW_SERVERS(Role.ADMIN),
    CHANGE_SERVERS(Role.ADMIN),
    /** Connecting to a server to see its tools starts the server's process or reaches its address. */
    TEST_SERVERS(Role.ADMIN),
    MANAGE_USERS(Role.ADMIN),
    /** The outgoing webhooks and how their deliveries stand. */
    VIEW_WEBHOOKS(Role.ADMIN),
    CHANGE_WEBHOOKS(Role.ADMIN),
    /** The telemetry export: where spans and metrics go, its headers' references, whether content is captured. */
    CHANGE_TELEMETRY(Role.ADMIN),
    SETTLE_UNKNOWN_OUTCOME(Role.OPERATOR, Role.ADMIN),
    /** Seeing the standing grants people made from cards. */
    VIEW_GRANTS(Role.OPERATOR, Role.SUPERVISOR, Role.ADMIN),
    /** Revoking a standing grant: an admin any, an operator their own (checked on the grant). */
    REVOKE_GRANT(Role.OPERATOR, Role.ADMIN),
    /** Switching an agent's standing grants off or back on. */
    SWITCH_GRANTS(Role.ADMIN),
    /** Moving a waiting card's deadline once by its span. */
    EXTEND_DEADLINE(Role.OPERATOR, Role.ADMIN),
    /**
     * Executing queued runs and carrying out decisions already committed, each under the identity of the run's
     * initiator or decider. A dedicated worker login is what a shared store wants, since it cannot decide; an
     * operator or admin may run one too (one desk), which gives them nothing they could not do already.
     */
    RUN_WORKER(Role.WORKER, Role.OPERATOR, Role.ADMIN);

    private final Set<Role> allowed;

    Operation(Role first, Role... rest) {
        this.allowed = EnumSet.of(first, rest);
    }

    /** True when any of the roles allows this operation; a user without roles may do nothing. */
    public boolean allowedFor(Set<Role> roles) {
        return roles.stream().anyMatch(allowed::contains);
    }

    public Set<Role> allowedRoles() {
        return Set.copyOf(allowed);
    }
}
