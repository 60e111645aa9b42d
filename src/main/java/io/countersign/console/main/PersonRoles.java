package io.countersign.console.main;

import io.countersign.console.common.Messages;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The person at the console with the roles the store gives them now, and what those roles show: the sections of
 * the sidebar, the roles under the name, whether they may start runs and decide. All follow a {@link #change}.
 */
final class PersonRoles {
    private final Messages messages;
    private final ObjectProperty<Actor> person;
    private final ObservableList<Section> sections = FXCollections.observableArrayList();
    private final StringProperty roles = new SimpleStringProperty();
    private final BooleanBinding mayAct;

    PersonRoles(Actor actor, Messages messages) {
        this.messages = Objects.requireNonNull(messages, "messages");
        this.person = new SimpleObjectProperty<>(Objects.requireNonNull(actor, "actor"));
        this.mayAct = Bindings.createBooleanBinding(() -> person.get().has(Role.OPERATOR)
                || person.get().has(Role.ADMIN), person);
        show(actor);
    }

    /** Takes the person's new roles; returns whether they lost any. */
    boolean change(Actor now) {
        boolean lost = !now.roles().containsAll(person.get().roles());
        person.set(now);
        show(now);
        return lost;
    }

    private void show(Actor actor) {
        roles.set(actor.roles().stream().sorted().map(role -> role.name().toLowerCase(Locale.ROOT))
                .reduce((a, b) -> a + ", " + b).orElse(messages.get("main.noRole")));
        sections.setAll(Arrays.stream(Section.values()).filter(shown -> shown.visibleTo(actor)).toList());
    }

    /** The first section the person may use; one with no role sees the runs list, which refuses them itself. */
    Section firstSection() {
        return sections.isEmpty() ? Section.RUNS : sections.get(0);
    }

    Actor person() {
        return person.get();
    }

    ObservableList<Section> sections() {
        return sections;
    }

    /** "operator, admin", or "no role". */
    ReadOnlyStringProperty roles() {
        return roles;
    }

    BooleanBinding mayAct() {
        return mayAct;
    }
}
