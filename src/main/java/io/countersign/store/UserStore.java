package io.countersign.store;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.port.ActorDirectory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The people who may use the console and their roles. The first user of a new store becomes admin; the last
 * admin cannot lose the role or be removed. Every change is recorded as a {@link SettingChange} keyed
 * {@code user_roles:<name>}. Role checks belong to the caller; {@link #find} answers from a cache that the change
 * feed empties whenever users or settings change, in this process or another.
 */
public final class UserStore implements ActorDirectory {
    public static final int MAX_NAME_LENGTH = 128;

    private final Database database;
    private final RoleCache cache = new RoleCache();

    UserStore(Database database) {
        this.database = database;
        database.changes().subscribe(kind -> {
            if (kind == ChangeKind.SETTINGS) {
                cache.forget();
            }
        });
    }

    /** The user of this name with the roles they hold now, if the store knows them. */
    @Override
    public Optional<Actor> find(String name) {
        return cache.get(name, () -> database.read("read the user " + name, connection -> load(connection, name)));
    }

    /**
     * Calls the listener (on the change feed's thread) after users or roles may have changed, here or in another
     * process; {@link #find} then reads them anew (the cache's own listener, subscribed first, has emptied it).
     */
    public ChangeFeed.Subscription onChange(Runnable listener) {
        return database.changes().subscribe(kind -> {
            if (kind == ChangeKind.SETTINGS) {
                listener.run();
            }
        });
    }

    /** A write of users or roles, after which this process's own next question reads them anew. */
    private <T> T change(String what, SqlWork<T> work) {
        try {
            return database.write(what, ChangeKind.SETTINGS, work);
        } finally {
            cache.forget();
        }
    }

    /** Every user, by name. */
    public List<Actor> list() {
        return database.read("read the users", UserStore::all);
    }

    /** Every user, by name, as the connection reads them. */
    static List<Actor> all(Connection connection) throws SQLException {
        Map<String, Set<Role>> users = new LinkedHashMap<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT u.name, r.role FROM users u"
                + " LEFT JOIN user_roles r ON r.user_name = u.name ORDER BY u.name");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                Set<Role> roles = users.computeIfAbsent(rows.getString(1), name -> EnumSet.noneOf(Role.class));
                if (rows.getString(2) != null) {
                    roles.add(role(rows.getString(2)));
                }
            }
        }
        return users.entrySet().stream().map(user -> new Actor(user.getKey(), user.getValue())).toList();
    }

    /**
     * The person this process acts for: on PostgreSQL the database login, as the server authenticated it
     * ({@code session_user}); on SQLite, where the file's permissions are the boundary, the operating system's
     * user. Found, or added as {@link #ensureUser} does.
     *
     * @throws LoginsNotAdoptedException on a PostgreSQL store whose people are still operating-system names
     */
    public Actor signedIn(String osUserName) {
        if (database.dialect() == Dialect.SQLITE) {
            return ensureUser(osUserName);
        }
        String login = database.read("read the database login", connection -> {
            if (LoginAdoption.pending(connection).isPresent()) {
                // the names are not logins yet: a login of the same name may be somebody else
                throw new LoginsNotAdoptedException();
            }
            try (PreparedStatement select = connection.prepareStatement("SELECT session_user");
                 ResultSet row = select.executeQuery()) {
                row.next();
                return row.getString(1);
            }
        });
        // Only an admin may add users to a shared store: a login it does not know acts with no role.
        return find(login).orElseGet(() -> list().isEmpty() ? ensureUser(login) : new Actor(login, Set.of()));
    }

    /**
     * Creates the PostgreSQL login of this name, with no password (it signs in as the server's pg_hba allows); a
     * login that exists is left as it is. Needs CREATEROLE.
     *
     * @throws IllegalArgumentException on SQLite, which has no logins
     */
    public void createLogin(String name) {
        requireName(name);
        if (database.dialect() != Dialect.POSTGRESQL) {
            throw new IllegalArgumentException("--create-login applies to a PostgreSQL store only: a SQLite store's"
                    + " users are the names of the people at its desk");
        }
        database.write("create the login " + name, connection -> {
            LoginRoles.create(connection, name);
            return null;
        });
    }

    /**
     * The user the embedded store runs as: found, or added. The first user of a new store gets every role a
     * person holds (admin, operator, supervisor), so that one person on one desk can do everything, their own
     * worker included; the worker role is for a worker process's login. Later users start with none until an
     * admin grants them.
     */
    public Actor ensureUser(String osUserName) {
        String name = requireName(osUserName);
        Optional<Actor> known = find(name);
        if (known.isPresent()) {
            return known.get();
        }
        return change("add the user " + name, connection -> {
            Optional<Actor> raced = load(connection, name);
            if (raced.isPresent()) {
                return raced.get();
            }
            Set<Role> roles = userCount(connection) == 0
                    ? EnumSet.of(Role.ADMIN, Role.OPERATOR, Role.SUPERVISOR) : EnumSet.noneOf(Role.class);
            return insert(connection, database.clock().instant(), name, roles, Actor.of(name));
        });
    }

    /**
     * Adds a user with these roles.
     *
     * @throws IllegalArgumentException when the name is taken or not a valid user name
     */
    public Actor add(String name, Set<Role> roles, Actor who) {
        requireName(name);
        Objects.requireNonNull(who, "who");
        return change("add the user " + name, connection -> {
            if (load(connection, name).isPresent()) {
                throw new IllegalArgumentException("there already is a user named \"" + name + "\"");
            }
            LoginRoles.apply(connection, database.dialect(), name, roles);
            return insert(connection, database.clock().instant(), name, roles, who);
        });
    }

    /**
     * Replaces a user's roles.
     *
     * @throws IllegalArgumentException for an unknown user
     * @throws IllegalStateException    when it would take the admin role from the last admin
     */
    public Actor setRoles(String name, Set<Role> roles, Actor who) {
        Objects.requireNonNull(who, "who");
        Set<Role> next = roles.isEmpty() ? EnumSet.noneOf(Role.class) : EnumSet.copyOf(roles);
        return change("change the roles of " + name, connection -> {
            Actor current = load(connection, name).orElseThrow(() -> new IllegalArgumentException(
                    "there is no user named \"" + name + "\""));
            if (current.roles().equals(next)) {
                return current;
            }
            if (current.isAdmin() && !next.contains(Role.ADMIN) && otherAdmins(connection, name) == 0) {
                throw new IllegalStateException("Cannot take the admin role from " + name
                        + ": they are the last admin; make another user admin first.");
            }
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM user_roles WHERE user_name = ?")) {
                delete.setString(1, name);
                delete.executeUpdate();
            }
            insertRoles(connection, name, next);
            LoginRoles.apply(connection, database.dialect(), name, next);
            SettingChanges.record(connection, database.clock().instant(), who, SettingKind.USER_ROLES.key(name),
                    codes(current.roles()), codes(next));
            return new Actor(name, next);
        });
    }

    /**
     * Removes a user and their roles. What they did stays as it was recorded: decisions, events and changes keep
     * their name as text. The change is recorded with the roles they held and no new value.
     *
     * @throws IllegalArgumentException for an unknown user
     * @throws IllegalStateException    when they are the last admin
     */
    public Actor remove(String name, Actor who) {
        Objects.requireNonNull(who, "who");
        return change("remove the user " + name, connection -> {
            Actor current = load(connection, name).orElseThrow(() -> new IllegalArgumentException(
                    "there is no user named \"" + name + "\""));
            if (current.isAdmin() && otherAdmins(connection, name) == 0) {
                throw new IllegalStateException("Cannot remove " + name + ": they are the last admin; make another"
                        + " user admin first.");
            }
            if (LoginRoles.shared(connection, database.dialect())) {
                LoginRoles.apply(connection, database.dialect(), name, Set.of());
            }
            for (String table : List.of("DELETE FROM user_roles WHERE user_name = ?",
                    "DELETE FROM users WHERE name = ?")) {
                try (PreparedStatement delete = connection.prepareStatement(table)) {
                    delete.setString(1, name);
                    delete.executeUpdate();
                }
            }
            SettingChanges.record(connection, database.clock().instant(), who, SettingKind.USER_ROLES.key(name),
                    codes(current.roles()), null);
            return current;
        });
    }

    /**
     * Gives a person one more role in the caller's transaction, adding them when the store does not know them
     * yet; recorded as every change of roles is. Group memberships are the caller's.
     */
    static Actor grant(Connection connection, Instant time, Actor who, String name, Role role) throws SQLException {
        Optional<Actor> current = load(connection, name);
        if (current.isEmpty()) {
            return insert(connection, time, name, EnumSet.of(role), who);
        }
        if (current.get().roles().contains(role)) {
            return current.get();
        }
        Set<Role> next = EnumSet.of(role);
        next.addAll(current.get().roles());
        insertRoles(connection, name, EnumSet.of(role));
        SettingChanges.record(connection, time, who, SettingKind.USER_ROLES.key(name), codes(current.get().roles()),
                codes(next));
        return new Actor(name, next);
    }

    private static Actor insert(Connection connection, Instant time, String name, Set<Role> roles, Actor who)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO users (name) VALUES (?)")) {
            insert.setString(1, name);
            insert.executeUpdate();
        }
        insertRoles(connection, name, roles);
        SettingChanges.record(connection, time, who, SettingKind.USER_ROLES.key(name), null, codes(roles));
        return new Actor(name, roles);
    }

    private static void insertRoles(Connection connection, String name, Set<Role> roles) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO user_roles (user_name, role) VALUES (?, ?)")) {
            for (Role role : roles) {
                insert.setString(1, name);
                insert.setString(2, code(role));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static Optional<Actor> load(Connection connection, String name) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT u.name, r.role FROM users u"
                + " LEFT JOIN user_roles r ON r.user_name = u.name WHERE u.name = ?")) {
            select.setString(1, name);
            try (ResultSet rows = select.executeQuery()) {
                Set<Role> roles = EnumSet.noneOf(Role.class);
                boolean found = false;
                while (rows.next()) {
                    found = true;
                    if (rows.getString(2) != null) {
                        roles.add(role(rows.getString(2)));
                    }
                }
                return found ? Optional.of(new Actor(name, roles)) : Optional.empty();
            }
        }
    }

    private static long otherAdmins(Connection connection, String name) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT COUNT(*) FROM user_roles WHERE role = ? AND user_name <> ?")) {
            select.setString(1, code(Role.ADMIN));
            select.setString(2, name);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private static long userCount(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM users");
             ResultSet row = select.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    private static String requireName(String name) {
        if (name == null || name.isBlank() || name.length() > MAX_NAME_LENGTH
                || name.chars().anyMatch(Character::isISOControl) || !name.equals(name.strip())) {
            throw new IllegalArgumentException("a user name is 1 to " + MAX_NAME_LENGTH + " characters without"
                    + " control characters or surrounding spaces, got \"" + name + "\"");
        }
        return name;
    }

    private static String code(Role role) {
        return role.name().toLowerCase(Locale.ROOT);
    }

    private static Role role(String code) throws SQLException {
        try {
            return Role.valueOf(code.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new SQLException("the store holds an unknown role \"" + code + "\"", e);
        }
    }

    private static String codes(Set<Role> roles) {
        return roles.stream().map(UserStore::code).sorted().collect(Collectors.joining(","));
    }
}
