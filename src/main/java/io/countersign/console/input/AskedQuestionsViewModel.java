package io.countersign.console.input;

import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.service.AskedInputs;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import javafx.application.Platform;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The questions servers ask during this process's calls, oldest first. While it is started the console is the
 * process's surface for them, so servers' questions are asked instead of declined; each change reloads the list
 * in the background, keeping what was typed into the questions that still wait.
 */
public final class AskedQuestionsViewModel {
    private static final System.Logger LOG = System.getLogger(AskedQuestionsViewModel.class.getName());

    private final AskedInputs questions;
    private final SchemaValidator schemas;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ObservableList<AskedQuestionItem> waiting = FXCollections.observableArrayList();
    private AutoCloseable surface;
    private boolean loading;
    private boolean loadAgain;

    public AskedQuestionsViewModel(AskedInputs questions, SchemaValidator schemas, Actor actor, Executor executor,
                                   Messages messages) {
        this.questions = Objects.requireNonNull(questions, "questions");
        this.schemas = Objects.requireNonNull(schemas, "schemas");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    /**
     * Attaches the console as the surface that shows questions, and loads those that wait; for a person who may not
     * answer them it does neither, so that the questions are declined rather than left waiting.
     */
    public void start() {
        if (!questions.mayAnswer(actor)) {
            return;
        }
        if (surface == null) {
            surface = questions.attach(() -> Platform.runLater(this::refresh));
        }
        refresh();
    }

    /** Detaches: from now on this process's questions are declined. */
    public void stop() {
        if (surface != null) {
            try {
                surface.close();
            } catch (Exception e) {
                LOG.log(System.Logger.Level.DEBUG, "detaching from the questions failed", e);
            }
            surface = null;
        }
    }

    /** Reloads the waiting questions in the background; reloads asked for meanwhile fold into one more. */
    public void refresh() {
        if (loading) {
            loadAgain = true;
            return;
        }
        loading = true;
        Tasks.create(() -> questions.waiting(actor))
                .onSuccess(fresh -> {
                    replace(fresh);
                    loaded();
                })
                .onError(failure -> {
                    LOG.log(System.Logger.Level.WARNING, "the servers' questions could not be listed", failure);
                    loaded();
                })
                .runOnce(executor);
    }

    private void loaded() {
        loading = false;
        if (loadAgain) {
            loadAgain = false;
            refresh();
        }
    }

    private void replace(List<AskedInputs.Asked> fresh) {
        Map<String, AskedQuestionItem> shown = new HashMap<>();
        waiting.forEach(item -> shown.put(item.id(), item));
        List<AskedQuestionItem> next = fresh.stream().map(asked -> shown.containsKey(asked.id())
                ? shown.get(asked.id()) : new AskedQuestionItem(asked, questions, schemas, actor, executor,
                messages)).toList();
        if (!next.equals(waiting)) {
            waiting.setAll(next);
        }
    }

    /** The questions that wait, oldest first. */
    public ObservableList<AskedQuestionItem> waiting() {
        return waiting;
    }
}
