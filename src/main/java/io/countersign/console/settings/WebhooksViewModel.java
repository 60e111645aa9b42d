package io.countersign.console.settings;

import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.webhook.CardEventType;
import io.countersign.engine.webhook.HookStatus;
import io.countersign.service.WebhookService;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * The webhooks part of the settings screen: every webhook with its last delivery, a Remove per hook, and a form
 * that adds one. The service checks what is typed; its refusal (a URL that is not one, a secret typed as a value)
 * is shown under the form as it says it.
 */
public final class WebhooksViewModel {
    private final WebhookService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;

    private final ObservableList<WebhookRow> hooks = FXCollections.observableArrayList();
    private final StringProperty url = new SimpleStringProperty("");
    private final StringProperty secret = new SimpleStringProperty("");
    private final Map<CardEventType, BooleanProperty> events = new EnumMap<>(CardEventType.class);
    private final BooleanProperty slack = new SimpleBooleanProperty();
    private final ReadOnlyStringWrapper formError = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();

    public WebhooksViewModel(WebhookService service, Actor actor, Executor executor, Messages messages) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        for (CardEventType type : CardEventType.values()) {
            BooleanProperty box = new SimpleBooleanProperty(type == CardEventType.WAITING
                    || type == CardEventType.ESCALATED);
            box.addListener((o, was, now) -> formError.set(""));
            events.put(type, box);
        }
        url.addListener((o, was, now) -> formError.set(""));
        secret.addListener((o, was, now) -> formError.set(""));
    }

    /** Reads the webhooks and how their deliveries stand. */
    public void load() {
        Tasks.create(() -> service.list(actor))
                .onSuccess(this::show)
                .onError(failure -> problem.set(messages.get("webhooks.loadFailed", describe(failure))))
                .runOnce(executor);
    }

    private void show(List<HookStatus> found) {
        hooks.setAll(found.stream().map(status -> WebhookRow.of(status, queue(status))).toList());
    }

    private String queue(HookStatus status) {
        String pending = messages.get("webhooks.pending", status.pending());
        return status.failed() == 0 ? pending : pending + ", " + messages.get("webhooks.failed", status.failed());
    }

    /** Adds the webhook the form describes; the form starts over once it is stored. */
    public void add() {
        String events = this.events.entrySet().stream().filter(entry -> entry.getValue().get())
                .map(entry -> entry.getKey().code()).collect(Collectors.joining(","));
        if (url.get() == null || url.get().isBlank()) {
            formError.set(messages.get("webhooks.urlMissing"));
            return;
        }
        if (events.isEmpty()) {
            formError.set(messages.get("webhooks.eventsMissing"));
            return;
        }
        if (busy.get()) {
            return;
        }
        busy.set(true);
        problem.set("");
        status.set("");
        String typedUrl = url.get();
        String typedSecret = secret.get();
        boolean slackBody = slack.get();
        Tasks.create(() -> service.add(actor, typedUrl, events, typedSecret, slackBody))
                .onSuccess(hook -> {
                    busy.set(false);
                    status.set(messages.get("webhooks.added", hook.id(), hook.url().toString()));
                    url.set("");
                    secret.set("");
                    slack.set(false);
                    load();
                })
                .onError(failure -> {
                    busy.set(false);
                    if (failure instanceof IllegalArgumentException) {
                        formError.set(describe(failure));
                    } else {
                        problem.set(messages.get("webhooks.addFailed", describe(failure)));
                    }
                })
                .runOnce(executor);
    }

    /** Removes the webhook and the events still queued for it. */
    public void remove(WebhookRow row) {
        busy.set(true);
        problem.set("");
        status.set("");
        Tasks.create(() -> service.remove(actor, row.id()))
                .onSuccess(removed -> {
                    busy.set(false);
                    status.set(messages.get(removed ? "webhooks.removed" : "webhooks.gone", row.id(), row.url()));
                    load();
                })
                .onError(failure -> {
                    busy.set(false);
                    problem.set(messages.get("webhooks.removeFailed", row.id(), describe(failure)));
                })
                .runOnce(executor);
    }

    private static String describe(Throwable failure) {
        return Optional.ofNullable(failure.getMessage()).orElse(failure.getClass().getSimpleName());
    }

    /** Every webhook, oldest first. */
    public ObservableList<WebhookRow> hooks() {
        return hooks;
    }

    public StringProperty urlProperty() {
        return url;
    }

    /** The secret's reference as typed: {@code env:NAME} or {@code file:PATH}. */
    public StringProperty secretProperty() {
        return secret;
    }

    public BooleanProperty eventProperty(CardEventType type) {
        return events.get(type);
    }

    public BooleanProperty slackProperty() {
        return slack;
    }

    /** Why the form's webhook was not added; empty otherwise. */
    public ReadOnlyStringProperty formErrorProperty() {
        return formError.getReadOnlyProperty();
    }

    /** A failure to read or change the webhooks; empty otherwise. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** What the last change did; empty otherwise. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** Whether a change is under way. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }
}
