package io.countersign.console.users;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.SimpleBooleanProperty;

/** One user of the users table: their roles as stored, and a check box per role as the admin has set it. */
public final class UserRow {
    private Actor saved;
    private final boolean self;
    private final Map<Role, BooleanProperty> roles = new EnumMap<>(Role.class);
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();

    UserRow(Actor saved, boolean self) {
        this.saved = Objects.requireNonNull(saved, "saved");
        this.self = self;
        for (Role role : Role.values()) {
            roles.put(role, new SimpleBooleanProperty(saved.has(role)));
        }
    }

    public String name() {
        return saved.name();
    }

    /** Whether this is the person at the console. */
    public boolean self() {
        return self;
    }

    /** The check box of one role. */
    public BooleanProperty roleProperty(Role role) {
        return roles.get(role);
    }

    /** Whether the service is changing this user's roles. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    Actor saved() {
        return saved;
    }

    /** The roles the check boxes say. */
    Set<Role> checked() {
        Set<Role> checked = EnumSet.noneOf(Role.class);
        roles.forEach((role, box) -> {
            if (box.get()) {
                checked.add(role);
            }
        });
        return checked;
    }

    void setBusy(boolean working) {
        busy.set(working);
    }

    /** The store's answer: the roles now held; the check boxes follow. */
    void saved(Actor now) {
        saved = now;
        reset();
    }

    /** Puts the check boxes back to the roles as stored. */
    void reset() {
        roles.forEach((role, box) -> box.set(saved.has(role)));
    }
}
