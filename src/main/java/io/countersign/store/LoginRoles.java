package io.countersign.store;

import io.countersign.engine.Role;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

/**
 * On a PostgreSQL store that {@code store init} made shared, a user's roles are also the memberships of their
 * login in the group roles, which the database's privileges and policies go by: changed in the transaction that
 * changes the user's roles, so that the two never disagree. Elsewhere this does nothing.
 */
final class LoginRoles {
    private LoginRoles() {
    }

    /**
     * Whether {@code store init} made this store shared: its tables belong to the owner role no person uses. The
     * group roles alone say nothing, since roles belong to the whole server and other stores may share it.
     */
    static boolean shared(Connection connection, Dialect dialect) throws SQLException {
        if (dialect != Dialect.POSTGRESQL) {
            return false;
        }
        try (PreparedStatement select = connection.prepareStatement("SELECT 1 FROM pg_tables"
                + " WHERE schemaname = current_schema() AND tablename = 'decisions' AND tableowner = ?")) {
            select.setString(1, SharedAccess.OWNER);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        }
    }

    /**
     * Makes the login's group memberships match the roles.
     *
     * @throws IllegalArgumentException when the store is shared and no login has the name
     */
    static void apply(Connection connection, Dialect dialect, String name, Set<Role> roles) throws SQLException {
        if (!shared(connection, dialect)) {
            return;
        }
        if (!loginExists(connection, name)) {
            throw new IllegalArgumentException("there is no PostgreSQL login named \"" + name + "\"; create it first"
                    + " (countersign users set " + name + " --roles ... --create-login, or CREATE ROLE)");
        }
        String login = SharedStoreInit.quote(name);
        try (Statement statement = connection.createStatement()) {
            for (Role role : Role.values()) {
                String group = SharedAccess.Group.of(role).roleName();
                if (roles.contains(role)) {
                    // an admin may hand on the groups, admin included, as store init let its first admin
                    statement.execute("GRANT " + group + " TO " + login + (role == Role.ADMIN ? " WITH ADMIN OPTION"
                            : ""));
                } else {
                    statement.execute("REVOKE " + group + " FROM " + login);
                }
            }
        }
    }

    /** Creates a login with no password: its owner signs in as pg_hba allows (a password the DBA sets, GSS, certificates). */
    static void create(Connection connection, String name) throws SQLException {
        if (loginExists(connection, name)) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(createStatement(name));
        }
    }

    /** The statement {@link #create} runs. */
    static String createStatement(String name) {
        return "CREATE ROLE " + SharedStoreInit.quote(name) + " LOGIN";
    }

    private static boolean loginExists(Connection connection, String name) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT 1 FROM pg_roles WHERE rolname = ?")) {
            select.setString(1, name);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        }
    }
}
