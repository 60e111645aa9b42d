package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import java.util.Set;

/** What became of a change to users. */
public sealed interface UserResult {

    /** The user was added with these roles. */
    record Added(Actor user) implements UserResult {
    }

    /** The user's roles were replaced; {@code before} were their roles until now. */
    record Changed(Actor user, Set<Role> before) implements UserResult {
        public Changed {
            before = Set.copyOf(before);
        }
    }

    /** The user already had exactly these roles; nothing was recorded. */
    record Unchanged(Actor user) implements UserResult {
    }

    /** The user is gone with their roles; {@code user} is who they were. */
    record Removed(Actor user) implements UserResult {
    }

    /** No user has this name. */
    record NoSuchUser(String name) implements UserResult {
    }

    /** Nothing changed, for this reason (the name is taken, or it would leave the store without an admin). */
    record Refused(String reason) implements UserResult {
    }
}
