package io.countersign.console.settings;

import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneFeedback;
import io.countersign.console.common.PaneState;
import io.countersign.engine.Actor;
import io.countersign.engine.port.TelemetrySettings;
import io.countersign.service.SettingsService;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The telemetry screen: the stored export (endpoint, headers, service name, the share of runs
 * traced, content capture), saved as one audited setting. What this console's own {@code OTEL_*} variables set is
 * named, since they win over the stored settings here. A value the settings refuse is shown under the form as they
 * word it, never repeating a header's value.
 */
public final class TelemetryViewModel {
    private final SettingsService service;
    private final Actor actor;
    private final Messages messages;
    private final PaneState pane;
    private final String environment;

    private final StringProperty endpoint = new SimpleStringProperty("");
    private final StringProperty headers = new SimpleStringProperty("");
    private final StringProperty serviceName = new SimpleStringProperty("");
    private final StringProperty samplerRatio = new SimpleStringProperty("");
    private final BooleanProperty captureContent = new SimpleBooleanProperty();
    private final ReadOnlyStringWrapper formError = new ReadOnlyStringWrapper("");

    /** @param environmentSets the {@code OTEL_*} variables this console's environment sets, in the settings' order */
    public TelemetryViewModel(SettingsService service, Actor actor, Executor executor, Messages messages,
                              List<String> environmentSets) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.pane = new PaneState(executor, messages);
        this.environment = environmentSets.isEmpty() ? messages.get("telemetry.environment")
                : messages.get("telemetry.environmentHere", String.join(", ", environmentSets));
        show(TelemetrySettings.NONE);
        for (StringProperty field : List.of(endpoint, headers, serviceName, samplerRatio)) {
            field.addListener((o, was, now) -> formError.set(""));
        }
        captureContent.addListener((o, was, now) -> formError.set(""));
    }

    /** Reads the stored settings into the form. */
    public void load() {
        pane.read(() -> service.telemetry(actor), this::show, "telemetry.loadFailed");
    }

    private void show(TelemetrySettings stored) {
        endpoint.set(stored.endpoint());
        headers.set(stored.headersText());
        serviceName.set(stored.serviceName());
        samplerRatio.set(ratioText(stored.samplerRatio()));
        captureContent.set(stored.captureContent());
    }

    private static String ratioText(double ratio) {
        return ratio == Math.rint(ratio) ? Long.toString((long) ratio) : Double.toString(ratio);
    }

    /** Saves what the form says, when the settings accept it. */
    public void save() {
        if (pane.isBusy()) {
            return;
        }
        TelemetrySettings typed;
        try {
            typed = new TelemetrySettings(endpoint.get(), TelemetrySettings.headersOf(headers.get()),
                    serviceName.get(), ratio(), captureContent.get());
        } catch (IllegalArgumentException e) {
            formError.set(FailureText.of(e));
            return;
        }
        pane.change(() -> service.saveTelemetry(actor, typed), changed -> {
            pane.status(!changed ? messages.get("telemetry.unchanged")
                    : typed.exports() ? messages.get("telemetry.saved", typed.endpoint())
                    : messages.get("telemetry.savedOff"));
            show(typed);
        }, failure -> {
            if (failure instanceof IllegalArgumentException) {
                formError.set(FailureText.of(failure));
            } else {
                pane.fail(failure, "telemetry.saveFailed");
            }
        });
    }

    private double ratio() {
        try {
            return Double.parseDouble(samplerRatio.get().strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(messages.get("telemetry.ratioInvalid"), e);
        }
    }

    /** The OTLP/HTTP base address; empty for off. */
    public StringProperty endpointProperty() {
        return endpoint;
    }

    /** One {@code name=value} per line; a value may be {@code env:NAME}. */
    public StringProperty headersProperty() {
        return headers;
    }

    public StringProperty serviceNameProperty() {
        return serviceName;
    }

    /** The share of runs traced, 0 to 1, as typed. */
    public StringProperty samplerRatioProperty() {
        return samplerRatio;
    }

    /** Whether executed calls' arguments and results go into spans; the screen warns while it is on. */
    public BooleanProperty captureContentProperty() {
        return captureContent;
    }

    /** That a process's {@code OTEL_*} variables win, and which this console's environment sets. */
    public String environmentNote() {
        return environment;
    }

    /** Why the form's settings were not saved; empty otherwise. */
    public ReadOnlyStringProperty formErrorProperty() {
        return formError.getReadOnlyProperty();
    }

    /** The problem, the status and whether a change is under way. */
    public PaneFeedback feedback() {
        return pane;
    }
}
