package io.countersign.store;

import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.state.RunStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Makes a PostgreSQL store one the database itself guards ({@code countersign store init}, run by the database's
 * owner, again after every upgrade): the group roles, every table owned by {@link SharedAccess#OWNER}, each
 * group's privileges from {@link SharedAccess}, and the row policy that lets a decision be written only for the
 * login writing it, by an operator or admin, on the card a run waits on, with four eyes where its agent asks (and a
 * deadline's fallback by any process that sweeps, a worker's too).
 * Every statement is idempotent, and all run in one transaction.
 */
final class SharedStoreInit {
    private static final List<String> WAITING = List.of("waiting_for_approval", "waiting_for_input");
    /** The admins' retention purge: the one way events leave a shared store. */
    static final String PURGE_FUNCTION = "countersign_purge_events";

    private SharedStoreInit() {
    }

    /**
     * Runs the statements in the caller's transaction and returns them, in order.
     *
     * @throws StoreException when the store has a table the access map has no entry for, or its people still
     *                        wait to adopt their logins; nothing ran
     */
    static List<String> run(Connection connection) throws SQLException {
        List<String> statements = statements(connection);
        try (Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
        return statements;
    }

    private static List<String> statements(Connection connection) throws SQLException {
        if (LoginAdoption.pending(connection).isPresent()) {
            // the memberships below would hand each name's roles to whoever holds the login of that name
            throw new LoginsNotAdoptedException();
        }
        String schema = quote(single(connection, "SELECT current_schema()"));
        List<String> tables = tables(connection);
        List<String> unknown = tables.stream().filter(table -> SharedAccess.of(table).isEmpty()).toList();
        if (!unknown.isEmpty()) {
            throw new StoreException("store init found " + (unknown.size() == 1 ? "the table " : "the tables ")
                    + String.join(", ", unknown) + " with no entry in the map of who may do what"
                    + " (io.countersign.store.SharedAccess); add one for each before sharing the store, nothing"
                    + " was changed");
        }
        List<String> sql = new ArrayList<>();
        String groups = SharedAccess.groups().stream().map(SharedAccess.Group::roleName)
                .collect(Collectors.joining(", "));
        for (String role : roles()) {
            if (!exists(connection, "SELECT 1 FROM pg_roles WHERE rolname = ?", role)) {
                sql.add("CREATE ROLE " + role + " NOLOGIN");
            }
        }
        // The owner of the database becomes able to hand the tables to the owning role, and the first admin.
        sql.add("GRANT " + SharedAccess.OWNER + " TO CURRENT_USER");
        sql.add("GRANT " + SharedAccess.Group.ADMIN.roleName() + " TO CURRENT_USER WITH ADMIN OPTION");
        // Admins grant and revoke the other groups (countersign users set) without being superusers.
        sql.add("GRANT " + SharedAccess.Group.OPERATOR.roleName() + ", " + SharedAccess.Group.SUPERVISOR.roleName()
                + ", " + SharedAccess.Group.WORKER.roleName() + " TO " + SharedAccess.Group.ADMIN.roleName()
                + " WITH ADMIN OPTION");
        sql.add("REVOKE CREATE ON SCHEMA " + schema + " FROM PUBLIC");
        // the owner too: the foreign keys' checks run as the owner of the table
        sql.add("GRANT USAGE ON SCHEMA " + schema + " TO " + SharedAccess.OWNER + ", " + groups);
        for (String table : tables) {
            String name = schema + "." + quote(table);
            sql.add("ALTER TABLE " + name + " OWNER TO " + SharedAccess.OWNER);
            sql.add("REVOKE ALL ON " + name + " FROM PUBLIC, " + groups);
            SharedAccess.TableAccess access = SharedAccess.of(table).orElseThrow();
            for (SharedAccess.Group group : SharedAccess.groups()) {
                if (!access.of(group).isEmpty()) {
                    sql.add("GRANT " + access.of(group) + " ON " + name + " TO " + group.roleName());
                }
            }
        }
        sql.add("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA " + schema + " TO "
                + SharedAccess.Group.OPERATOR.roleName() + ", " + SharedAccess.Group.ADMIN.roleName() + ", "
                + SharedAccess.Group.WORKER.roleName());
        sql.addAll(decisionPolicies(schema + ".decisions", schema));
        sql.addAll(approvalPolicies(schema + ".approvals", schema));
        sql.addAll(purgeFunction(schema));
        sql.addAll(memberships(connection));
        return sql;
    }

    /**
     * Decisions: everyone with a privilege reads them; a new one passes only for the login writing it, on the
     * card its run waits on now, and not as an approval by the run's own initiator when the agent wants four eyes.
     * Within one statement that claims the run and writes the decision, the policy sees the run as it was before.
     */
    private static List<String> decisionPolicies(String decisions, String schema) {
        String waiting = WAITING.stream().map(status -> "'" + status + "'").collect(Collectors.joining(", "));
        String decide = "decided_by = session_user"
                + " AND EXISTS (SELECT 1 FROM " + schema + ".runs r WHERE r.id = decisions.run_id"
                + " AND r.status IN (" + waiting + ") AND r.digest = decisions.digest)"
                + " AND NOT (decisions.kind = 'APPROVAL' AND decisions.verdicts::jsonb @> '[{\"approved\": true}]'"
                + " AND EXISTS (SELECT 1 FROM " + schema + ".runs r JOIN " + schema + ".agent_configurations a"
                + " ON a.name = r.agent WHERE r.id = decisions.run_id AND a.four_eyes AND r.initiator = session_user))"
                // an approval that needs more people than one comes last, after the agent's count less one others
                + " AND NOT (decisions.kind = 'APPROVAL' AND decisions.verdicts::jsonb @> '[{\"approved\": true}]'"
                + " AND (SELECT a.approvals FROM " + schema + ".runs r JOIN " + schema + ".agent_configurations a"
                + " ON a.name = r.agent WHERE r.id = decisions.run_id) > 1 + (SELECT count(*) FROM " + schema
                + ".approvals p WHERE p.run_id = decisions.run_id AND p.digest = decisions.digest"
                + " AND p.approved_by <> session_user))";
        // A deadline's fallback, which any process that sweeps may record: never an approval, and only on a card
        // whose deadline passed by the database's clock (with 30 s for the clocks of the sweeping machines).
        String deadline = "decided_by = '" + DecisionDeadlines.ACTOR + "'"
                + " AND NOT (COALESCE(decisions.verdicts, '[]')::jsonb @> '[{\"approved\": true}]')"
                + " AND EXISTS (SELECT 1 FROM " + schema + ".runs r WHERE r.id = decisions.run_id"
                + " AND r.status IN (" + waiting + ") AND r.digest = decisions.digest AND r.deadline"
                + " <= (extract(epoch FROM clock_timestamp()) * 1000000000)::bigint + 30000000000)";
        List<String> sql = new ArrayList<>();
        sql.add("ALTER TABLE " + decisions + " ENABLE ROW LEVEL SECURITY");
        for (String policy : List.of("countersign_read", "countersign_decide", "countersign_deadline",
                "countersign_mark", "countersign_take_back")) {
            sql.add("DROP POLICY IF EXISTS " + policy + " ON " + decisions);
        }
        sql.add("CREATE POLICY countersign_read ON " + decisions + " FOR SELECT USING (true)");
        sql.add("CREATE POLICY countersign_decide ON " + decisions + " FOR INSERT TO "
                + SharedAccess.Group.OPERATOR.roleName() + ", " + SharedAccess.Group.ADMIN.roleName()
                + " WITH CHECK (" + decide + ")");
        sql.add("CREATE POLICY countersign_deadline ON " + decisions + " FOR INSERT TO "
                + SharedAccess.Group.OPERATOR.roleName() + ", " + SharedAccess.Group.ADMIN.roleName() + ", "
                + SharedAccess.Group.WORKER.roleName() + " WITH CHECK (" + deadline + ")");
        sql.add("CREATE POLICY countersign_mark ON " + decisions + " FOR UPDATE USING (true)");
        sql.add("CREATE POLICY countersign_take_back ON " + decisions + " FOR DELETE USING (true)");
        return sql;
    }

    /**
     * Approvals before a card's last: everyone with a privilege reads them; a new one passes only for the login
     * writing it, on the card its run waits on for approval now, and never by the run's own initiator when the
     * agent wants four eyes. Nobody changes or removes one.
     */
    private static List<String> approvalPolicies(String approvals, String schema) {
        String approve = "approved_by = session_user"
                + " AND EXISTS (SELECT 1 FROM " + schema + ".runs r WHERE r.id = approvals.run_id"
                + " AND r.status = '" + RunStatus.WAITING_FOR_APPROVAL.code() + "' AND r.digest = approvals.digest"
                + " AND r.pause_number = approvals.pause_number)"
                + " AND NOT EXISTS (SELECT 1 FROM " + schema + ".runs r JOIN " + schema + ".agent_configurations a"
                + " ON a.name = r.agent WHERE r.id = approvals.run_id AND a.four_eyes AND r.initiator = session_user)";
        List<String> sql = new ArrayList<>();
        sql.add("ALTER TABLE " + approvals + " ENABLE ROW LEVEL SECURITY");
        for (String policy : List.of("countersign_read", "countersign_approve")) {
            sql.add("DROP POLICY IF EXISTS " + policy + " ON " + approvals);
        }
        sql.add("CREATE POLICY countersign_read ON " + approvals + " FOR SELECT USING (true)");
        sql.add("CREATE POLICY countersign_approve ON " + approvals + " FOR INSERT TO "
                + SharedAccess.Group.OPERATOR.roleName() + ", " + SharedAccess.Group.ADMIN.roleName()
                + " WITH CHECK (" + approve + ")");
        return sql;
    }

    /**
     * Nobody may delete events but through this function, which runs as the tables' owner and checks that the login
     * calling it is an admin.
     */
    private static List<String> purgeFunction(String schema) {
        String function = schema + "." + PURGE_FUNCTION;
        String events = schema + ".governance_events";
        return List.of("CREATE OR REPLACE FUNCTION " + function + "(cutoff BIGINT, slice INTEGER) RETURNS SETOF "
                        + events + " LANGUAGE plpgsql SECURITY DEFINER SET search_path = " + schema + ", pg_temp AS $$"
                        + " BEGIN IF NOT pg_has_role(session_user, '" + SharedAccess.Group.ADMIN.roleName()
                        + "', 'MEMBER') THEN RAISE EXCEPTION 'only a Countersign admin may purge governance events'"
                        + " USING ERRCODE = '42501'; END IF; RETURN QUERY WITH gone AS (DELETE FROM " + events
                        + " WHERE id IN (SELECT id FROM " + events + " WHERE event_time < cutoff LIMIT slice)"
                        + " RETURNING *) SELECT * FROM gone; END $$",
                "ALTER FUNCTION " + function + "(BIGINT, INTEGER) OWNER TO " + SharedAccess.OWNER,
                "REVOKE ALL ON FUNCTION " + function + "(BIGINT, INTEGER) FROM PUBLIC",
                "GRANT EXECUTE ON FUNCTION " + function + "(BIGINT, INTEGER) TO "
                        + SharedAccess.Group.ADMIN.roleName());
    }

    /**
     * The statement that deletes one slice of events older than its one parameter and returns the columns given:
     * through {@link #PURGE_FUNCTION} on a shared store, where no login may delete events itself.
     */
    static String purgeSlice(Connection connection, Dialect dialect, int slice, String columns) throws SQLException {
        if (dialect == Dialect.POSTGRESQL && single(connection, "SELECT to_regproc('" + PURGE_FUNCTION + "')")
                != null) {
            return "SELECT " + columns + " FROM " + PURGE_FUNCTION + "(?, " + slice + ")";
        }
        return "DELETE FROM governance_events WHERE id IN (SELECT id FROM governance_events WHERE event_time < ?"
                + " LIMIT " + slice + ") RETURNING " + columns;
    }

    /** The roles the store's users hold, as group memberships of the logins of the same name. */
    private static List<String> memberships(Connection connection) throws SQLException {
        List<String> sql = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT r.user_name, r.role FROM user_roles r"
                + " JOIN pg_roles p ON p.rolname = r.user_name ORDER BY r.user_name, r.role");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                sql.add("GRANT " + SharedAccess.Group.valueOf(rows.getString(2).toUpperCase(java.util.Locale.ROOT))
                        .roleName() + " TO " + quote(rows.getString(1)));
            }
        }
        return sql;
    }

    private static List<String> roles() {
        List<String> roles = new ArrayList<>(List.of(SharedAccess.OWNER));
        SharedAccess.groups().forEach(group -> roles.add(group.roleName()));
        return roles;
    }

    private static List<String> tables(Connection connection) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT table_name FROM information_schema.tables"
                + " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                tables.add(rows.getString(1));
            }
        }
        return tables;
    }

    private static boolean exists(Connection connection, String sql, String value) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, value);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        }
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getString(1);
        }
    }

    /** A PostgreSQL identifier, quoted. */
    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
