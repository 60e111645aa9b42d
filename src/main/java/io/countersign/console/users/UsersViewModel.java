package io.countersign.console.users;

import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
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
    private final Executor executor;
    private final Messages messages;

    private final ObservableList<UserRow> users = FXCollections.observableArrayList();
    /** The role a new user's form starts with. */
    private static final Role DEFAULT_ROLE = Role.OPERATOR;
    private final StringProperty newName = new SimpleStringProperty("");
    private final Map<Role, BooleanProperty> newRoles = new EnumMap<>(Role.class);
    private final ReadOnlyStringWrapper nameError = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper rolesError = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper adding = new ReadOnlyBooleanWrapper();

    public UsersViewModel(UserService service, Actor actor, Executor executor, Messages messages) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        for (Role role : Role.values()) {
            BooleanProperty box = new SimpleBooleanProperty(role == DEFAULT_ROLE);
            box.addListener((o, was, now) -> rolesError.set(""));
            newRoles.put(role, box);
        }
        newName.addListener((o, was, now) -> nameError.set(""));
    }

    /** Loads the users. */
    public void load() {
        Tasks.create(() -> service.list(actor))
                .onSuccess(this::showUsers)
                .onError(failure -> problem.set(messages.get("users.loadFailed", describe(failure))))
                .runOnce(executor);
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
        row.setBusy(true);
        problem.set("");
        status.set("");
        Tasks.create(() -> service.setRoles(actor, row.name(), roles))
                .onSuccess(result -> {
                    row.setBusy(false);
                    if (result instanceof UserResult.Refused refused) {
                        row.reset();
                        problem.set(refused.reason());
                    } else if (result instanceof UserResult.NoSuchUser missing) {
                        problem.set(messages.get("users.gone", missing.name()));
                        load();
                    } else if (result instanceof UserResult.Changed changed) {
                        row.saved(changed.user());
                        status.set(messages.get("users.changed", row.name(), roles(before),
                                roles(changed.user().roles())));
                    } else if (result instanceof UserResult.Unchanged unchanged) {
                        row.saved(unchanged.user());
                    }
                })
                .onError(failure -> {
                    row.setBusy(false);
                    row.reset();
                    problem.set(messages.get("users.changeFailed", row.name(), describe(failure)));
                })
                .runOnce(executor);
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
        if (!nameError.get().isEmpty() || !rolesError.get().isEmpty() || adding.get()) {
            return;
        }
        adding.set(true);
        problem.set("");
        status.set("");
        Tasks.create(() -> service.add(actor, name, roles))
                .onSuccess(result -> {
                    adding.set(false);
                    if (result instanceof UserResult.Added added) {
                        status.set(messages.get("users.added", added.user().name(), roles(added.user().roles())));
                        // the form starts over, as it first was, for the next user
                        newName.set("");
                        newRoles.forEach((role, box) -> box.set(role == DEFAULT_ROLE));
                        load();
                    } else if (result instanceof UserResult.Refused refused) {
                        nameError.set(refused.reason());
                    }
                })
                .onError(failure -> {
                    adding.set(false);
                    // the store names what is wrong with a name it will not take
                    if (failure instanceof IllegalArgumentException) {
                        nameError.set(describe(failure));
                    } else {
                        problem.set(messages.get("users.addFailed", name, describe(failure)));
                    }
                })
                .runOnce(executor);
    }

    /** Removes a user once the admin has confirmed it; the service refuses the last admin. */
    public void remove(UserRow row) {
        row.setBusy(true);
        problem.set("");
        status.set("");
        Tasks.create(() -> service.remove(actor, row.name()))
                .onSuccess(result -> {
                    row.setBusy(false);
                    if (result instanceof UserResult.Removed removed) {
                        status.set(messages.get("users.removed", removed.user().name()));
                        load();
                    } else if (result instanceof UserResult.Refused refused) {
                        problem.set(refused.reason());
                    } else if (result instanceof UserResult.NoSuchUser missing) {
                        problem.set(messages.get("users.gone", missing.name()));
                        load();
                    }
                })
                .onError(failure -> {
                    row.setBusy(false);
                    problem.set(messages.get("users.removeFailed", row.name(), describe(failure)));
                })
                .runOnce(executor);
    }

    private String roles(Set<Role> roles) {
        return roles.isEmpty() ? messages.get("users.noRole") : roles.stream().sorted()
                .map(role -> role.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
    }

    private static String describe(Throwable failure) {
        return Optional.ofNullable(failure.getMessage()).orElse(failure.getClass().getSimpleName());
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

    /** Why the last change did not happen ("they are the last admin"); empty otherwise. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** What the last change did; empty otherwise. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** Whether a user is being added. */
    public ReadOnlyBooleanProperty addingProperty() {
        return adding.getReadOnlyProperty();
    }
}
