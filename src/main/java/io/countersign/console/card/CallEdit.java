package io.countersign.console.card;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Json;
import io.countersign.engine.run.EditCheck;
import io.countersign.service.RunCard;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * A person's edit of one waiting call's arguments: the JSON they type (or the form writes), checked by the service
 * as they type (the tool's schema, the pre-approval rules), with the preview taken again for the edited call and the
 * model's arguments against theirs as a diff. While an edit is open and not yet checked fine, the card cannot be
 * submitted.
 */
public final class CallEdit {
    private final CardSession session;
    private final String runId;
    private final int index;
    private final ObjectNode model;
    private final BooleanProperty open = new SimpleBooleanProperty();
    private final StringProperty json = new SimpleStringProperty("");
    private final ObjectProperty<ObjectNode> schema = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper checking = new ReadOnlyBooleanWrapper();
    private final ObservableList<String> preview = FXCollections.observableArrayList();
    private final ObservableList<String> diff = FXCollections.observableArrayList();
    private final BooleanBinding blocks;
    /** The arguments the service last found fitting, or {@code null}. */
    private ObjectNode fitting;
    private int generation;

    CallEdit(CardSession session, String runId, int index, String modelArguments) {
        this.session = Objects.requireNonNull(session, "session");
        this.runId = runId;
        this.index = index;
        this.model = parseObject(modelArguments);
        blocks = Bindings.createBooleanBinding(() -> open.get() && (checking.get() || problem.get() != null),
                open, checking, problem);
        json.addListener((o, was, now) -> {
            if (open.get()) {
                check(now);
            }
        });
    }

    /** Opens the edit with the model's arguments, and asks for the tool's schema for the form. */
    public void start() {
        if (open.get()) {
            return;
        }
        open.set(true);
        json.set(pretty(model));
        check(json.get());
        String tool = session.cardProperty().get() == null ? null : session.cardProperty().get().pending().stream()
                .filter(call -> call.index() == index).map(RunCard.PendingCallView::tool).findFirst().orElse(null);
        if (tool != null) {
            Tasks.create(() -> session.service().argumentSchema(session.actor(), tool))
                    .onSuccess(found -> found.ifPresent(schema::set))
                    .runOnce(session.executor());
        }
    }

    /** Drops the edit: the call goes back to the model's arguments. */
    public void cancel() {
        open.set(false);
        generation++;
        checking.set(false);
        problem.set(null);
        fitting = null;
        preview.clear();
        diff.clear();
    }

    /** The person's arguments when they differ from the model's and the service found them fitting; else null. */
    public ObjectNode editedArguments() {
        return open.get() && fitting != null && !fitting.equals(model) ? fitting.deepCopy() : null;
    }

    private void check(String text) {
        int asked = ++generation;
        ObjectNode arguments;
        try {
            arguments = parseObject(text);
        } catch (IllegalArgumentException e) {
            fitting = null;
            checking.set(false);
            problem.set(e.getMessage());
            diff.clear();
            return;
        }
        diff.setAll(diff(model, arguments));
        checking.set(true);
        Tasks.create(() -> session.service().checkEdit(session.actor(), runId, index, arguments))
                .onSuccess(result -> {
                    if (asked != generation) {
                        return;
                    }
                    checking.set(false);
                    answered(result);
                })
                .onError(failure -> {
                    if (asked == generation) {
                        checking.set(false);
                        fitting = null;
                        problem.set(session.messages().get("card.edit.checkFailed"));
                    }
                })
                .runOnce(session.executor());
    }

    private void answered(EditCheck result) {
        if (result instanceof EditCheck.Fits fits) {
            fitting = fits.arguments();
            problem.set(null);
            preview.setAll(fits.preview());
        } else if (result instanceof EditCheck.Refused refused) {
            fitting = null;
            problem.set(session.messages().get("card.edit.refused", refused.ruleIdentifier(),
                    refused.explanation()));
            preview.clear();
        } else {
            fitting = null;
            problem.set(((EditCheck.Invalid) result).problem());
            preview.clear();
        }
    }

    /** The model's arguments against the edited ones, member by member: unchanged, removed (-) and added (+). */
    static List<String> diff(ObjectNode model, ObjectNode edited) {
        List<String> lines = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>();
        model.fieldNames().forEachRemaining(names::add);
        edited.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            JsonNode before = model.get(name);
            JsonNode after = edited.get(name);
            if (Objects.equals(before, after)) {
                lines.add("  " + name + ": " + before);
                continue;
            }
            if (before != null) {
                lines.add("- " + name + ": " + before);
            }
            if (after != null) {
                lines.add("+ " + name + ": " + after);
            }
        }
        return lines;
    }

    private ObjectNode parseObject(String text) {
        JsonNode parsed;
        try {
            parsed = Json.mapper().readTree(text == null ? "" : text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(session.messages().get("card.edit.notJson", e.getOriginalMessage()));
        }
        if (parsed == null || !parsed.isObject()) {
            throw new IllegalArgumentException(session.messages().get("card.edit.notObject"));
        }
        return (ObjectNode) parsed;
    }

    static String pretty(JsonNode node) {
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            return node.toString();
        }
    }

    /** The model's arguments, a copy. */
    public ObjectNode modelArguments() {
        return model.deepCopy();
    }

    public BooleanProperty openProperty() {
        return open;
    }

    /** The edited arguments as JSON text: what the JSON editor shows and the form writes. */
    public StringProperty jsonProperty() {
        return json;
    }

    /** The tool's JSON Schema, once known; the form is made from it. */
    public ReadOnlyObjectProperty<ObjectNode> schemaProperty() {
        return schema;
    }

    /** What is wrong with the edit, or {@code null} while it fits. */
    public ReadOnlyStringProperty problemProperty() {
        return problem;
    }

    public ObservableList<String> preview() {
        return preview;
    }

    public ObservableList<String> diff() {
        return diff;
    }

    /** Whether this edit keeps the card from being submitted: open and being checked, or not fitting. */
    public BooleanBinding blocksProperty() {
        return blocks;
    }

    /** The schema's top-level properties, in its order: the fields of the form. */
    static Map<String, JsonNode> properties(ObjectNode schema) {
        Map<String, JsonNode> properties = new LinkedHashMap<>();
        schema.path("properties").fields().forEachRemaining(e -> properties.put(e.getKey(), e.getValue()));
        return properties;
    }
}
