package io.countersign.store;

import io.countersign.engine.Role;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What each group of a shared PostgreSQL store may do with each table: the one map {@code store init} grants from.
 * A new table needs one entry here, or {@code store init} refuses the store. Privileges are SQL privilege lists
 * ({@code ""} for none); rows of {@code decisions} and
 * {@code approvals} are further held by the policies {@link SharedStoreInit} writes.
 */
final class SharedAccess {
    /** The role that owns every table; no person logs in as it. */
    static final String OWNER = "countersign_owner";

    /** The group roles a person's login is a member of. */
    enum Group {
        OPERATOR("countersign_operator"),
        SUPERVISOR("countersign_supervisor"),
        ADMIN("countersign_admin"),
        /** A worker process's login: claims queued runs and records their outcomes, never decides. */
        WORKER("countersign_worker");

        private final String roleName;

        Group(String roleName) {
            this.roleName = roleName;
        }

        String roleName() {
            return roleName;
        }

        /** The group of a Countersign role. */
        static Group of(Role role) {
            return valueOf(role.name());
        }
    }

    /** One table's privileges per group. */
    record TableAccess(String operator, String supervisor, String admin, String worker) {
        String of(Group group) {
            return switch (group) {
                case OPERATOR -> operator;
                case SUPERVISOR -> supervisor;
                case ADMIN -> admin;
                case WORKER -> worker;
            };
        }
    }

    private static final String READ = "SELECT";
    private static final String ALL = "SELECT, INSERT, UPDATE, DELETE";
    /** Kept by whoever appends events: tables of names and counts derived from them. */
    private static final TableAccess DERIVED_FROM_EVENTS = new TableAccess(ALL, READ, ALL, ALL);
    /** Settings, server records, users and roles: admins change them, everyone reads them. */
    private static final TableAccess ADMINS_CHANGE = new TableAccess(READ, READ, ALL, READ);

    /** Every table of the store, by name. */
    static final Map<String, TableAccess> TABLES = Map.ofEntries(
            // insert-only for everyone: no UPDATE or DELETE, the retention purge goes through its function
            Map.entry("governance_events", new TableAccess("SELECT, INSERT", READ, "SELECT, INSERT",
                    "SELECT, INSERT")),
            Map.entry("governance_event_names", DERIVED_FROM_EVENTS),
            Map.entry("governance_event_counts", DERIVED_FROM_EVENTS),
            Map.entry("governance_event_code_counts", DERIVED_FROM_EVENTS),
            Map.entry("governance_event_code_day_counts", DERIVED_FROM_EVENTS),
            Map.entry("governance_event_day_counts", DERIVED_FROM_EVENTS),
            // kept by whoever decides or escalates a card: operators, admins, a worker's deadline fallback
            Map.entry("decision_latency_counts", DERIVED_FROM_EVENTS),
            Map.entry("decision_fallback_counts", DERIVED_FROM_EVENTS),
            Map.entry("tool_settings", ADMINS_CHANGE),
            Map.entry("setting_changes", new TableAccess(READ, READ, "SELECT, INSERT", READ)),
            Map.entry("users", ADMINS_CHANGE),
            Map.entry("user_roles", ADMINS_CHANGE),
            Map.entry("mcp_servers", ADMINS_CHANGE),
            Map.entry("model_configurations", ADMINS_CHANGE),
            Map.entry("agent_configurations", ADMINS_CHANGE),
            // a carried-over store's pending adoption of logins, cleared once by its owner
            Map.entry("login_adoption", ADMINS_CHANGE),
            Map.entry("change_counters", new TableAccess("SELECT, UPDATE", READ, "SELECT, UPDATE", "SELECT, UPDATE")),
            // operators start runs and carry out decisions; workers claim queued runs and record outcomes
            Map.entry("runs", new TableAccess("SELECT, INSERT, UPDATE", READ, "SELECT, INSERT, UPDATE",
                    "SELECT, UPDATE")),
            // a person's decision row is written by operators and admins only, as the policy allows; a worker
            // inserts only a deadline's fallback, which its own policy holds; the process carrying a decision out
            // marks its event recorded, and a decision that did not go through is taken back
            Map.entry("decisions", new TableAccess("SELECT, INSERT, UPDATE (event_recorded), DELETE", READ,
                    "SELECT, INSERT, UPDATE (event_recorded), DELETE",
                    "SELECT, INSERT, UPDATE (event_recorded), DELETE")),
            // an approval before a card's last is written by operators and admins only, as its policy allows
            Map.entry("approvals", new TableAccess("SELECT, INSERT", READ, "SELECT, INSERT", READ)),
            Map.entry("call_intents", new TableAccess(ALL, READ, ALL, ALL)),
            // operators make grants when they decide and revoke their own; whoever drives a run counts a use;
            // admins revoke any
            Map.entry("grants", new TableAccess("SELECT, INSERT, UPDATE", READ, ALL, "SELECT, UPDATE (uses)")),
            // admins switch an agent's grants off and on
            Map.entry("agent_grant_switches", ADMINS_CHANGE),
            // every process that drives runs registers itself, a supervisor's console too
            Map.entry("store_sessions", new TableAccess(ALL, ALL, ALL, ALL)),
            Map.entry("flyway_schema_history", new TableAccess(READ, READ, READ, READ)),
            // the audit chain: whoever appends events or decisions appends an entry and moves the head; entries are
            // never changed, and supervisors read them to verify
            Map.entry("audit_chain", new TableAccess("SELECT, INSERT", READ, "SELECT, INSERT", "SELECT, INSERT")),
            Map.entry("audit_head", new TableAccess("SELECT, UPDATE", READ, "SELECT, UPDATE", "SELECT, UPDATE")),
            Map.entry("audit_unchained", new TableAccess(READ, READ, READ, READ)),
            // admins keep the webhooks; whoever commits a pause, a decision or a deadline's fallback queues its
            // events, and whichever process runs (a supervisor's console too) delivers them; removing a hook
            // removes its queue
            Map.entry("webhooks", ADMINS_CHANGE),
            Map.entry("webhook_outbox", new TableAccess("SELECT, INSERT, UPDATE", "SELECT, UPDATE", ALL,
                    "SELECT, INSERT, UPDATE")));

    private SharedAccess() {
    }

    /** The table's entry, if the map has one. */
    static Optional<TableAccess> of(String table) {
        return Optional.ofNullable(TABLES.get(table));
    }

    /** The groups, in the order their grants are written. */
    static List<Group> groups() {
        return List.of(Group.values());
    }
}
