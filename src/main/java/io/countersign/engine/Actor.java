package io.countersign.engine;

import java.util.Objects;
import java.util.Set;

/** A person (or a service account) acting on a run, with the roles the store gave them. */
public record Actor(String name, Set<Role> roles) {
    public Actor {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("an actor needs a non-blank name");
        }
        roles = Set.copyOf(roles);
    }

    public static Actor of(String name, Role... roles) {
        return new Actor(name, Set.of(roles));
    }

    public boolean has(Role role) {
        return roles.contains(role);
    }

    public boolean isAdmin() {
        return has(Role.ADMIN);
    }
}
