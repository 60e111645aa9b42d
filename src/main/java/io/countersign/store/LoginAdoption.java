package io.countersign.store;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Carries the people of a PostgreSQL store from Countersign 0.1, named after operating-system users, over to
 * database logins: found when the store is migrated (V25 keeps the version it came with), shown as a
 * {@link LoginPlan}, and applied by the store's owner in the transaction of {@code store init}.
 */
final class LoginAdoption {
    /** The last schema version of the builds whose people on PostgreSQL were operating-system names. */
    private static final int LAST_OS_NAMES_VERSION = 13;

    private LoginAdoption() {
    }

    /**
     * Before the migrations run: the schema version of a PostgreSQL store whose people are operating-system names,
     * one that predates logins or whose stored admins have none (carried past them by a build that did not ask);
     * empty for a new store, one with nobody in it yet, and every SQLite store.
     */
    static Optional<String> osNamesVersion(Database database) {
        if (database.dialect() != Dialect.POSTGRESQL) {
            return Optional.empty();
        }
        try (Connection connection = database.dataSource().getConnection()) {
            if (text(connection, "SELECT to_regclass('flyway_schema_history')::text") == null
                    || text(connection, "SELECT to_regclass('users')::text") == null) {
                return Optional.empty();
            }
            List<Actor> people = UserStore.all(connection);
            if (people.isEmpty()) {
                return Optional.empty();
            }
            int version = version(connection);
            Set<String> logins = logins(connection);
            boolean adminSignsIn = people.stream().anyMatch(person -> person.isAdmin()
                    && logins.contains(person.name()));
            return version <= LAST_OS_NAMES_VERSION || !adminSignsIn
                    ? Optional.of(Integer.toString(version)) : Optional.empty();
        } catch (SQLException e) {
            throw new StoreUnavailableException("The store " + database.location().describe() + " cannot be"
                    + " migrated: Countersign could not read who its people are (" + e.getMessage() + ")", e);
        }
    }

    /** The version of the store whose adoption is pending, if it is. */
    static Optional<String> pending(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT store_version FROM login_adoption");
             ResultSet row = select.executeQuery()) {
            return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
        }
    }

    /** What adopting the logins would do now, if it is pending. */
    static Optional<LoginPlan> plan(Connection connection) throws SQLException {
        Optional<String> version = pending(connection);
        return version.isEmpty() ? Optional.empty() : Optional.of(plan(connection, version.get()));
    }

    /**
     * Refuses a login that does not own the store's tables, before it writes anything (where the database would
     * refuse it with the first table it may not change).
     *
     * @throws LoginsNotAdoptedException naming the owner
     */
    static void requireOwner(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT tableowner, pg_has_role(session_user,"
                + " tableowner, 'MEMBER') FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'users'");
             ResultSet row = select.executeQuery()) {
            if (row.next() && !row.getBoolean(2)) {
                throw new LoginsNotAdoptedException("only the owner of this store's tables, " + row.getString(1)
                        + ", may adopt its people's logins (countersign store init --adopt-logins); nothing was"
                        + " changed");
            }
        }
    }

    /**
     * Applies the plan in the caller's transaction, when one is pending: creates the missing logins, makes the
     * owner an admin where the plan says so, records the adoption as a setting change, and clears it. Returns the
     * statements that created logins; the group memberships follow with the rest of {@code store init}. The
     * caller has checked {@link #requireOwner}.
     */
    static List<String> adopt(Connection connection, Instant now) throws SQLException {
        Optional<String> version;
        // the delete is the claim: of two owners adopting at once, the second finds nothing pending
        try (PreparedStatement delete = connection.prepareStatement(
                "DELETE FROM login_adoption RETURNING store_version");
             ResultSet row = delete.executeQuery()) {
            version = row.next() ? Optional.of(row.getString(1)) : Optional.empty();
        }
        if (version.isEmpty()) {
            return List.of();
        }
        LoginPlan plan = plan(connection, version.get());
        List<String> sql = new ArrayList<>();
        try (Statement statement = connection.createStatement()) {
            for (LoginPlan.Person person : plan.people()) {
                if (!person.loginExists()) {
                    statement.execute(person.createLogin());
                    sql.add(person.createLogin());
                }
            }
        }
        Actor owner = Actor.of(plan.owner());
        if (plan.ownerBecomesAdmin()) {
            UserStore.grant(connection, now, owner, plan.owner(), Role.ADMIN);
        }
        SettingChanges.record(connection, now, owner, SettingKind.LOGIN_ADOPTION.key(plan.storeVersion()),
                "operating-system names", "database logins");
        return sql;
    }

    private static LoginPlan plan(Connection connection, String version) throws SQLException {
        List<Actor> people = UserStore.all(connection);
        Set<String> logins = logins(connection);
        String owner = text(connection, "SELECT CASE WHEN pg_has_role(session_user, tableowner, 'MEMBER')"
                + " THEN session_user::text ELSE tableowner::text END FROM pg_tables"
                + " WHERE schemaname = current_schema() AND tablename = 'users'");
        boolean ownerBecomesAdmin = people.stream().noneMatch(person -> person.isAdmin()
                && logins.contains(person.name()));
        return new LoginPlan(version, owner, ownerBecomesAdmin, people.stream()
                .map(person -> new LoginPlan.Person(person.name(), person.roles(), logins.contains(person.name())))
                .toList());
    }

    /** The roles of the server, logins among them: a name taken by a role cannot be created again. */
    private static Set<String> logins(Connection connection) throws SQLException {
        Set<String> logins = new HashSet<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT rolname FROM pg_roles");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                logins.add(rows.getString(1));
            }
        }
        return logins;
    }

    /** The highest version the store's history applied; the versions are whole numbers. */
    private static int version(Connection connection) throws SQLException {
        int latest = 0;
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                String version = rows.getString(1);
                if (!version.isEmpty() && version.chars().allMatch(Character::isDigit)) {
                    latest = Math.max(latest, Integer.parseInt(version));
                }
            }
        }
        return latest;
    }

    private static String text(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            return row.next() ? row.getString(1) : null;
        }
    }
}
