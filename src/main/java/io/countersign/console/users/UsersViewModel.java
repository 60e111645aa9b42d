package io.countersign.console.users;

import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneFeedback;
import io.countersign.console.common.PaneState;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.service.UserResult;
import io.countersign.service.UserService;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The users screen: every user with a check box per role, where a click changes the roles at once (the service
 * records who and when), a Remove per user, and a form to add a user. A change the service refuses, such as taking the admin role
 * from the last admin, leaves the check boxes as stored and says why.
 */
public final class UsersViewModel {
    private final UserService service;
    private final Actor actor;
    private final Messages messages;
    private final PaneState pane;

    private final ObservableList<UserRow> users = FXCollections.observableArrayList();
    /** The role a new user's form starts with. */
    private static final Role DEFAULT_ROLE = Role.OPERATOR;
    private final StringProperty newName = new SimpleStringProperty("");
    private final Map<Role, BooleanProperty> newRoles = new EnumMap<>(Role.class);
    private final ReadOnlyStringWrapper nameError = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper rolesError = new ReadOnlyStringWrapper("");

    public UsersViewModel(UserService service, Actor actor, Executor executor, Messages messages) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.pane = new PaneState(executor, messages);
        for (Role role : Role.values()) {
            BooleanProperty box = new SimpleBooleanProperty(role == DEFAULT_ROLE);
            box.addListener((o, was, now) -> rolesError.set(""));
            newRoles.put(role, box);
        }
        newName.addListener((o, was, now) -> nameError.set(""));
    }

    /** Loads the users. */
    public void load() {
        pane.read(() -> service.list(actor), this::showUsers, "users.loadFailed");
    }

    private void showUsers(List<Actor> found) {
        users.setAll(found.stream().map(user -> {
            UserRow row = new UserRow(user, user.name().equals(actor.name()));
            for (Role role : Role.values()) {
                row.roleProperty(role).addListener((o, was, now) -> rolesChanged(row));
            }
            return row;
        }).toList());
    }

    private void rolesChanged(UserRow row) {
        Set<Role> roles = row.checked();
        if (roles.equals(row.saved().roles())) {
            // the check boxes went back to what is stored
            return;
        }
        Set<Role> before = row.saved().roles();
        pane.change(row::setBusy, () -> service.setRoles(actor, row.name(), roles), result -> {
            if (result instanceof UserResult.Refused refused) {
                row.reset();
                pane.problem(refused.reason());
            } else if (result instanceof UserResult.NoSuchUser missing) {
                gone(missing);
            } else if (result instanceof UserResult.Changed changed) {
                row.saved(changed.user());
                pane.status(messages.get("users.changed", row.name(), roles(before), roles(changed.user().roles())));
            } else if (result instanceof UserResult.Unchanged unchanged) {
                row.saved(unchanged.user());
            }
        }, failure -> {
            row.reset();
            pane.fail(failure, "users.changeFailed", row.name());
        });
    }

    /** Adds the user the form describes, once it names someone and gives them a role. */
    public void add() {
        String name = newName.get() == null ? "" : newName.get();
        Set<Role> roles = EnumSet.noneOf(Role.class);
        newRoles.forEach((role, box) -> {
            if (box.get()) {
                roles.add(role);
            }
        });
        nameError.set(name.isBlank() ? messages.get("users.nameMissing") : "");
        rolesError.set(roles.isEmpty() ? messages.get("users.rolesMissing") : "");
        if (!nameError.get().isEmpty() || !rolesError.get().isEmpty() || pane.isBusy()) {
            return;
        }
        pane.change(() -> service.add(actor, name, roles), result -> {
            if (result instanceof UserResult.Added added) {
                pane.status(messages.get("users.added", added.user().name(), roles(added.user().roles())));
                // the form starts over, as it first was, for the next user
                newName.set("");
                newRoles.forEach((role, box) -> box.set(role == DEFAULT_ROLE));
                load();
            } else if (result instanceof UserResult.Refused refused) {
                nameError.set(refused.reason());
            }
        }, failure -> {
            // the store names what is wrong with a name it will not take
            if (failure instanceof IllegalArgumentException) {
                nameError.set(FailureText.of(failure));
            } else {
                pane.fail(failure, "users.addFailed", name);
            }
        });
    }

    /** Removes a user once the admin has confirmed it; the service refuses the last admin. */
    public void remove(UserRow row) {
        pane.change(row::setBusy, () -> service.remove(actor, row.name()), result -> {
            if (result instanceof UserResult.Removed removed) {
                pane.status(messages.get("users.removed", removed.user().name()));
                load();
            } else if (result instanceof UserResult.Refused refused) {
                pane.problem(refused.reason());
            } else if (result instanceof UserResult.NoSuchUser missing) {
                gone(missing);
            }
        }, pane.failing("users.removeFailed", row.name()));
    }

    /** Someone else removed the user meanwhile: says so, and lists the users as they are now. */
    private void gone(UserResult.NoSuchUser missing) {
        pane.problem(messages.get("users.gone", missing.name()));
        load();
    }

    private String roles(Set<Role> roles) {
        return roles.isEmpty() ? messages.get("users.noRole") : roles.stream().sorted()
                .map(role -> role.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
    }

    /** Every user, by name. */
    public ObservableList<UserRow> users() {
        return users;
    }

    /** The name typed into the form. */
    public StringProperty newNameProperty() {
        return newName;
    }

    /** A role check box of the form; operator is checked to begin with. */
    public BooleanProperty newRoleProperty(Role role) {
        return newRoles.get(role);
    }

    /** What is wrong with the name typed, shown under it; empty when nothing is. */
    public ReadOnlyStringProperty nameErrorProperty() {
        return nameError.getReadOnlyProperty();
    }

    /** What is wrong with the roles picked, shown under them; empty when nothing is. */
    public ReadOnlyStringProperty rolesErrorProperty() {
        return rolesError.getReadOnlyProperty();
    }

    /** The problem, the status and whether a change is under way. */
    public PaneFeedback feedback() {
        return pane;
    }
}
