package io.countersign.console.settings;

import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneFeedback;
import io.countersign.console.common.PaneState;
import io.countersign.engine.Actor;
import io.countersign.engine.webhook.CardEventType;
import io.countersign.engine.webhook.HookStatus;
import io.countersign.service.WebhookService;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * The webhooks part of the settings screen: every webhook with its last delivery, a Remove per hook, and a form
 * that adds one. The service checks what is typed; its refusal (a URL that is not one, a secret typed as a value)
 * is shown under the form as it says it.
 */
public final class WebhooksViewModel {
    private final WebhookService service;
    private final Actor actor;
    private final Messages messages;
    private final PaneState pane;

    private final ObservableList<WebhookRow> hooks = FXCollections.observableArrayList();
    private final StringProperty url = new SimpleStringProperty("");
    private final StringProperty secret = new SimpleStringProperty("");
    private final Map<CardEventType, BooleanProperty> events = new EnumMap<>(CardEventType.class);
    private final BooleanProperty slack = new SimpleBooleanProperty();
    private final ReadOnlyStringWrapper formError = new ReadOnlyStringWrapper("");

    public WebhooksViewModel(WebhookService service, Actor actor, Executor executor, Messages messages) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.pane = new PaneState(executor, messages);
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
        pane.read(() -> service.list(actor), this::show, "webhooks.loadFailed");
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
        if (pane.isBusy()) {
            return;
        }
        String typedUrl = url.get();
        String typedSecret = secret.get();
        boolean slackBody = slack.get();
        pane.change(() -> service.add(actor, typedUrl, events, typedSecret, slackBody), hook -> {
            pane.status(messages.get("webhooks.added", hook.id(), hook.url().toString()));
            url.set("");
            secret.set("");
            slack.set(false);
            load();
        }, failure -> {
            if (failure instanceof IllegalArgumentException) {
                formError.set(FailureText.of(failure));
            } else {
                pane.fail(failure, "webhooks.addFailed");
            }
        });
    }

    /** Removes the webhook and the events still queued for it. */
    public void remove(WebhookRow row) {
        pane.change(() -> service.remove(actor, row.id()), removed -> {
            pane.status(messages.get(removed ? "webhooks.removed" : "webhooks.gone", row.id(), row.url()));
            load();
        }, pane.failing("webhooks.removeFailed", row.id()));
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

    /** The problem, the status and whether a change is under way. */
    public PaneFeedback feedback() {
        return pane;
    }
}
