package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.store.UserStore;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** The user use cases over the store's {@link UserStore}. */
public final class DefaultUserService implements UserService {
    private final UserStore users;
    private final Permissions permissions;

    public DefaultUserService(UserStore users) {
        this.users = Objects.requireNonNull(users, "users");
        this.permissions = new Permissions(users);
    }

    @Override
    public List<Actor> list(Actor actor) {
        permissions.requireNow(actor, Operation.MANAGE_USERS);
        return users.list();
    }

    @Override
    public UserResult add(Actor actor, String name, Set<Role> roles) {
        permissions.requireNow(actor, Operation.MANAGE_USERS);
        if (users.find(name).isPresent()) {
            return new UserResult.Refused("there already is a user named \"" + name + "\"");
        }
        return new UserResult.Added(users.add(name, roles, actor));
    }

    @Override
    public UserResult setRoles(Actor actor, String name, Set<Role> roles) {
        permissions.requireNow(actor, Operation.MANAGE_USERS);
        Optional<Actor> current = users.find(name);
        if (current.isEmpty()) {
            return new UserResult.NoSuchUser(name);
        }
        if (current.get().roles().equals(roles)) {
            return new UserResult.Unchanged(current.get());
        }
        try {
            return new UserResult.Changed(users.setRoles(name, roles, actor), current.get().roles());
        } catch (IllegalStateException lastAdmin) {
            return new UserResult.Refused(lastAdmin.getMessage());
        }
    }

    @Override
    public UserResult remove(Actor actor, String name) {
        permissions.requireNow(actor, Operation.MANAGE_USERS);
        if (users.find(name).isEmpty()) {
            return new UserResult.NoSuchUser(name);
        }
        try {
            return new UserResult.Removed(users.remove(name, actor));
        } catch (IllegalStateException lastAdmin) {
            return new UserResult.Refused(lastAdmin.getMessage());
        }
    }

    @Override
    public void createLogin(Actor actor, String name) {
        permissions.requireNow(actor, Operation.MANAGE_USERS);
        users.createLogin(name);
    }

    @Override
    public Actor current(Actor actor) {
        return permissions.current(actor);
    }

    @Override
    public AutoCloseable onChange(Runnable listener) {
        return users.onChange(listener);
    }
}
