package io.countersign.console.input;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.console.card.CardDone;
import io.countersign.console.card.CardSession;
import io.countersign.console.common.Banner;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.tool.InputValidation;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.service.RunCard;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.collections.ObservableList;

/**
 * An input card: a form built from the input tool's typed fields. Each value is checked as it is typed, the
 * form again when it is sent, then the service checks it by the same rules; problems go under their fields, the
 * typed values stay, and the first field with a problem is named so the view can focus it.
 */
public final class InputCardViewModel {
    private final CardSession session;
    private final SchemaValidator schemas;
    private final InputForm form;
    private final BooleanBinding editable;
    private Consumer<CardDone> onDone = done -> {
    };

    /** A card whose form checks the values with {@code schemas}, as the service will. */
    public InputCardViewModel(CardSession session, SchemaValidator schemas) {
        this.session = Objects.requireNonNull(session, "session");
        this.schemas = Objects.requireNonNull(schemas, "schemas");
        this.form = new InputForm(schemas);
        editable = Bindings.createBooleanBinding(session::open, session.cardProperty(), session.finishedProperty(),
                session.busyProperty());
    }

    /** Opens the card of a run: asks the service for it in the background. */
    public void open(String runId) {
        form.show(List.of(), Map.of());
        session.open(runId, this::show);
    }

    /** Opens the card of the same run again, dropping what was typed. */
    public void reload() {
        if (session.runId() != null) {
            open(session.runId());
        }
    }

    /** Shows the form of an input card, every field empty; the model's guesses become hints. */
    public void show(RunCard shown) {
        if (shown.input() == null) {
            form.show(List.of(), Map.of());
        } else {
            form.show(shown.input().fields(), shown.input().modelGuesses());
        }
        session.shown(shown);
        if (!session.mayDecide()) {
            session.say(Banner.info(session.messages().get("card.readOnlyRole")));
        }
    }

    /** Checks the values and, if they fit the form, sends them; problems show under their fields. */
    public void submit() {
        if (!editable.get()) {
            return;
        }
        RunCard shown = session.cardProperty().get();
        ObjectNode values = values();
        List<InputValidation.FieldError> problems = InputValidation.validate(schemas, shown.input().fields(),
                values);
        if (!problems.isEmpty()) {
            showErrors(problems);
            return;
        }
        form.clearErrors();
        session.decide(() -> session.service().submitInput(session.actor(), shown.runId(), shown.digest(), values),
                this::apply);
    }

    /** The values as the service takes them: one entry per field the person filled. */
    public ObjectNode values() {
        return form.values();
    }

    /** Shows the service's answer: a done card leaves, invalid values go under their fields, the rest on top. */
    public void apply(DecisionResult result) {
        if (result instanceof DecisionResult.Done done) {
            RunCard shown = session.cardProperty().get();
            onDone.accept(new CardDone(done.runId(), shown == null ? "" : shown.agent(), done, true));
        } else if (result instanceof DecisionResult.InvalidInput invalid) {
            showErrors(invalid.errors());
        } else {
            session.refused(result);
        }
    }

    /** Who hears about input that was taken. */
    public void setOnDone(Consumer<CardDone> listener) {
        this.onDone = Objects.requireNonNull(listener, "listener");
    }

    private void showErrors(List<InputValidation.FieldError> errors) {
        List<String> unplaced = form.showErrors(errors);
        if (!unplaced.isEmpty()) {
            session.say(Banner.danger(
                    session.messages().get("card.invalidInput", String.join("; ", unplaced))));
        }
    }

    /** The loading, the banner and the finality this card shares with the approval card. */
    public CardSession session() {
        return session;
    }

    /** The form's fields, in the tool's order. */
    public ObservableList<InputFieldItem> fields() {
        return form.fields();
    }

    /** The first field with a problem after the last check, for the view to focus; {@code null} when none. */
    public ReadOnlyObjectProperty<InputFieldItem> firstErrorProperty() {
        return form.firstErrorProperty();
    }

    /** Whether the form can be filled and sent. */
    public BooleanBinding editableProperty() {
        return editable;
    }
}
