package io.countersign.console.settings;

import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneFeedback;
import io.countersign.console.common.PaneState;
import io.countersign.engine.Actor;
import io.countersign.engine.Names;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.agent.DeadlineRule;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.service.GatewayProfiles;
import io.countersign.service.ServerService;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.stream.Stream;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The gateway profiles part of the settings screen: every profile with what it fronts, a form that adds one from
 * the store's MCP server records, Remove per profile, and the command a host starts for the selected one. The
 * form keeps what was typed when the service refuses it, and shows the refusal as the service says it.
 */
public final class GatewayProfilesViewModel {
    /** The fallback choice that means "no deadline". */
    public static final String NO_FALLBACK = "";

    private final GatewayProfiles profiles;
    private final ServerService servers;
    private final Actor actor;
    private final Messages messages;
    private final PaneState pane;

    private final ObservableList<GatewayProfileRow> rows = FXCollections.observableArrayList();
    private final ObservableList<ServerChoice> choices = FXCollections.observableArrayList();
    private final ObjectProperty<GatewayProfileRow> selected = new SimpleObjectProperty<>();
    private final StringProperty name = new SimpleStringProperty("");
    private final StringProperty tools = new SimpleStringProperty("");
    private final ObjectProperty<TrustZone> zone = new SimpleObjectProperty<>(TrustZone.LOCAL);
    private final BooleanProperty fourEyes = new SimpleBooleanProperty();
    private final StringProperty deadline = new SimpleStringProperty("");
    private final StringProperty fallback = new SimpleStringProperty(NO_FALLBACK);
    private final ReadOnlyStringWrapper formError = new ReadOnlyStringWrapper("");
    private final StringBinding command = Bindings.createStringBinding(() -> selected.get() == null ? ""
            : selected.get().command(), selected);
    private String shownAfterLoad;

    public GatewayProfilesViewModel(GatewayProfiles profiles, ServerService servers, Actor actor, Executor executor,
                                    Messages messages) {
        this.profiles = Objects.requireNonNull(profiles, "profiles");
        this.servers = Objects.requireNonNull(servers, "servers");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.pane = new PaneState(executor, messages);
        Stream.of(name, tools, deadline, fallback).forEach(field -> field.addListener((o, was, now) ->
                formError.set("")));
        zone.addListener((o, was, now) -> formError.set(""));
    }

    private record Loaded(List<GatewayProfiles.Profile> profiles, List<McpServerRecord> records) {
    }

    /** Reads the profiles and the server records the form offers. */
    public void load() {
        pane.read(() -> new Loaded(profiles.list(actor), servers.list(actor)), this::show, "gateway.loadFailed");
    }

    private void show(Loaded loaded) {
        String keep = shownAfterLoad != null ? shownAfterLoad
                : selected.get() == null ? null : selected.get().name();
        shownAfterLoad = null;
        rows.setAll(loaded.profiles().stream().map(profile -> GatewayProfileRow.of(profile, loaded.records(),
                messages.get("gateway.allTools"), messages.get("gateway.yes"), messages.get("gateway.no"),
                messages.get("gateway.noDeadline"))).toList());
        selected.set(rows.stream().filter(row -> row.name().equals(keep)).findFirst()
                .orElse(rows.isEmpty() ? null : rows.get(0)));
        // a record picked before the reload stays picked
        List<String> picked = pickedServers();
        choices.setAll(loaded.records().stream().map(record -> ServerChoice.of(record.name(),
                picked.contains(record.name()))).toList());
        choices.forEach(choice -> choice.picked().addListener((o, was, now) -> formError.set("")));
    }

    private List<String> pickedServers() {
        return choices.stream().filter(choice -> choice.picked().get()).map(ServerChoice::name).toList();
    }

    /** Saves the profile the form describes; the form starts over once it is stored. */
    public void add() {
        String typedName = name.get().strip();
        List<String> picked = pickedServers();
        List<String> allowed = Arrays.stream(tools.get().split(",")).map(String::strip).filter(t -> !t.isEmpty())
                .toList();
        String span = deadline.get().strip();
        String action = fallback.get();
        Optional<String> refused = check(typedName, picked, allowed, span, action);
        if (refused.isPresent()) {
            formError.set(refused.get());
            return;
        }
        if (pane.isBusy()) {
            return;
        }
        String zoneCode = zone.get().code();
        boolean twoPeople = fourEyes.get();
        pane.change(() -> profiles.add(actor, typedName, picked, allowed, zoneCode, twoPeople,
                span.isEmpty() ? null : span, action.isEmpty() ? null : action), profile -> {
            pane.status(messages.get("gateway.added", profile.name(), GatewayProfileRow.commandFor(profile.name())));
            clearForm();
            shownAfterLoad = profile.name();
            load();
        }, failure -> {
            if (failure instanceof IllegalArgumentException) {
                formError.set(FailureText.of(failure));
            } else {
                pane.fail(failure, "gateway.addFailed", typedName);
            }
        });
    }

    /** What the form lacks before the service is asked, in the form's own words. */
    private Optional<String> check(String typedName, List<String> picked, List<String> allowed, String span,
                                   String action) {
        if (typedName.isEmpty()) {
            return Optional.of(messages.get("gateway.nameMissing"));
        }
        if (!Names.isCode(typedName)) {
            return Optional.of(messages.get("gateway.nameInvalid", typedName));
        }
        if (picked.isEmpty() && allowed.isEmpty()) {
            return Optional.of(messages.get("gateway.frontsNothing", typedName));
        }
        if (!span.isEmpty() && action.isEmpty()) {
            return Optional.of(messages.get("gateway.fallbackMissing", span));
        }
        if (span.isEmpty() && !action.isEmpty()) {
            return Optional.of(messages.get("gateway.deadlineMissing", action));
        }
        if (!span.isEmpty()) {
            try {
                DeadlineRule.parseSpan(messages.get("gateway.deadlineField"), span);
            } catch (IllegalArgumentException notASpan) {
                return Optional.of(notASpan.getMessage());
            }
        }
        return Optional.empty();
    }

    private void clearForm() {
        name.set("");
        tools.set("");
        deadline.set("");
        fallback.set(NO_FALLBACK);
        fourEyes.set(false);
        zone.set(TrustZone.LOCAL);
        choices.forEach(choice -> choice.picked().set(false));
    }

    /** Removes a profile once the admin has confirmed it; the runs it served stay in the history. */
    public void remove(GatewayProfileRow row) {
        pane.change(() -> {
            profiles.remove(actor, row.name());
            return row.name();
        }, removed -> {
            pane.status(messages.get("gateway.removed", removed));
            load();
        }, failure -> {
            pane.fail(failure, "gateway.removeFailed", row.name());
            load();
        });
    }

    /** Every profile, by name. */
    public ObservableList<GatewayProfileRow> profiles() {
        return rows;
    }

    /** The server records the form offers, by name. */
    public ObservableList<ServerChoice> serverChoices() {
        return choices;
    }

    /** The profile whose command is shown. */
    public ObjectProperty<GatewayProfileRow> selectedProperty() {
        return selected;
    }

    /** The command a host starts for the selected profile; empty when none is. */
    public StringBinding commandProperty() {
        return command;
    }

    public StringProperty nameProperty() {
        return name;
    }

    /** Tools allowed by name, comma-separated, besides those of the picked servers. */
    public StringProperty toolsProperty() {
        return tools;
    }

    public ObjectProperty<TrustZone> zoneProperty() {
        return zone;
    }

    public BooleanProperty fourEyesProperty() {
        return fourEyes;
    }

    /** A span such as 30m, or empty for cards that wait without a deadline. */
    public StringProperty deadlineProperty() {
        return deadline;
    }

    /** The fallback's code, or {@link #NO_FALLBACK}. */
    public StringProperty fallbackProperty() {
        return fallback;
    }

    /** The fallbacks the form offers: none first, then every deadline action. */
    public List<String> fallbacks() {
        return Stream.concat(Stream.of(NO_FALLBACK), Arrays.stream(DeadlineAction.values())
                .map(DeadlineAction::code)).toList();
    }

    /** Why the form's profile was not saved, in one sentence; empty otherwise. */
    public ReadOnlyStringProperty formErrorProperty() {
        return formError.getReadOnlyProperty();
    }

    /** The problem, the status and whether a change is under way. */
    public PaneFeedback feedback() {
        return pane;
    }
}
