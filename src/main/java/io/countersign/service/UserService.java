package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import java.util.List;
import java.util.Set;

/**
 * The admin's use cases over users and their roles. Every method checks the acting user's roles and throws
 * {@link NotPermittedException} when they do not allow it; every change is recorded with who and when.
 */
public interface UserService {

    /** Every user with their roles, by name. */
    List<Actor> list(Actor actor);

    /** Adds a user with these roles; a taken name is refused. */
    UserResult add(Actor actor, String name, Set<Role> roles);

    /** Replaces a user's roles; taking the admin role from the last admin is refused. */
    UserResult setRoles(Actor actor, String name, Set<Role> roles);

    /**
     * Removes a user and their roles; what they decided and did keeps their name. Removing the last admin (also
     * oneself) is refused.
     */
    UserResult remove(Actor actor, String name);

    /**
     * Creates the PostgreSQL login of this name (no password: it signs in as the server allows), so that roles can be
     * given to it; a login that exists is left alone. Admins only, and their login needs CREATEROLE.
     *
     * @throws IllegalArgumentException on a SQLite store
     */
    void createLogin(Actor actor, String name);

    /**
     * The person with the roles they hold now (none once removed), as every other service checks them. Anyone may
     * ask this about themselves.
     */
    Actor current(Actor actor);

    /**
     * Listens for changes of users and roles, made here or in another process; the listener runs on a background
     * thread and asks {@link #current} what changed.
     */
    AutoCloseable onChange(Runnable listener);
}
