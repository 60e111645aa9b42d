package io.countersign.console.input;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.tool.InvalidInputException;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.service.AskedInputs;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * A question a server asks during a call, as a card of the inbox: who asks, the server's own words, and the form
 * of its fields. The answer goes to the process's waiting call in the background; the card leaves when the
 * question no longer waits, however it ended.
 */
public final class AskedQuestionItem {
    private final AskedInputs.Asked asked;
    private final AskedInputs questions;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final InputForm form;
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");

    AskedQuestionItem(AskedInputs.Asked asked, AskedInputs questions, SchemaValidator schemas, Actor actor,
                      Executor executor, Messages messages) {
        this.asked = Objects.requireNonNull(asked, "asked");
        this.form = new InputForm(schemas);
        this.questions = questions;
        this.actor = actor;
        this.executor = executor;
        this.messages = messages;
        form.show(asked.fields(), Map.of());
    }

    /** Who asks: the server (the part of the tool's name before its first dot), the tool and the run. */
    public String heading() {
        String tool = asked.toolName();
        int dot = tool.indexOf('.');
        String server = dot < 0 ? tool : tool.substring(0, dot);
        return messages.get("asked.heading", server, tool, messages.shortRunId(asked.runId()));
    }

    /** The server's message, shown as its words and not the console's. */
    public String message() {
        return asked.message();
    }

    /** Sends the values once they fit the fields; problems show under their fields and nothing is sent. */
    public void submit() {
        if (busy.get() || !form.check()) {
            return;
        }
        ObjectNode values = form.values();
        send(() -> questions.accept(actor, asked.id(), values));
    }

    /** Tells the server the person will not give the values. */
    public void decline() {
        if (!busy.get()) {
            send(() -> questions.decline(actor, asked.id()));
        }
    }

    /** Dismisses the question without an answer. */
    public void cancel() {
        if (!busy.get()) {
            send(() -> questions.cancel(actor, asked.id()));
        }
    }

    private void send(Callable<Boolean> answer) {
        busy.set(true);
        problem.set("");
        Tasks.create(answer)
                .onSuccess(taken -> {
                    busy.set(false);
                    if (!taken) {
                        problem.set(messages.get("asked.gone"));
                    }
                })
                .onError(failure -> {
                    busy.set(false);
                    if (failure instanceof InvalidInputException invalid) {
                        form.showErrors(invalid.errors());
                    } else {
                        problem.set(messages.get("asked.failed", failure.getMessage()));
                    }
                })
                .runOnce(executor);
    }

    /** The question's id in this process. */
    public String id() {
        return asked.id();
    }

    public InputForm form() {
        return form;
    }

    /** Whether an answer is on its way. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Why the last answer was not taken, empty when it was or none was sent. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }
}
