package io.countersign.console.newrun;

import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneState;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.service.AgentSummary;
import io.countersign.service.RunService;
import io.countersign.service.StartedRun;
import java.util.Objects;
import java.util.concurrent.Executor;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** The New run dialog: an agent, a prompt, and whether the run goes unattended (it never pauses then). */
public final class NewRunViewModel {
    private final RunService service;
    private final Actor actor;
    private final PaneState pane;

    private final ObservableList<AgentSummary> agents = FXCollections.observableArrayList();
    private final ObjectProperty<AgentSummary> agent = new SimpleObjectProperty<>();
    private final StringProperty prompt = new SimpleStringProperty("");
    private final BooleanProperty unattended = new SimpleBooleanProperty();
    private final StringBinding missing;
    private final StringBinding agentDetails;
    private final BooleanBinding canStart;
    private final ReadOnlyObjectWrapper<Started> started = new ReadOnlyObjectWrapper<>();

    public NewRunViewModel(RunService service, Actor actor, Executor executor, Messages messages) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.pane = new PaneState(executor, messages);
        missing = Bindings.createStringBinding(() -> {
            if (!mayStart()) {
                return messages.get("newRun.notPermitted");
            }
            if (agent.get() == null) {
                return messages.get("newRun.pickAgent");
            }
            if (prompt.get() == null || prompt.get().isBlank()) {
                return messages.get("newRun.typePrompt");
            }
            return "";
        }, agent, prompt);
        agentDetails = Bindings.createStringBinding(() -> {
            AgentSummary chosen = agent.get();
            if (chosen == null) {
                return "";
            }
            String details = messages.get("newRun.agentDetails", chosen.model(), chosen.trustZone(),
                    String.join(", ", chosen.toolGroups()));
            if (chosen.fourEyes()) {
                details += "\n" + messages.get("newRun.fourEyes");
            }
            if (chosen.scripted()) {
                details += "\n" + messages.get("newRun.scripted");
            }
            return details;
        }, agent);
        canStart = Bindings.createBooleanBinding(() -> missing.get().isEmpty() && !pane.isBusy(), missing,
                pane.busyProperty());
    }

    /** Resets the form and loads the agents to pick from. */
    public void open() {
        agent.set(null);
        prompt.set("");
        unattended.set(false);
        started.set(null);
        pane.change(() -> service.agents(actor), found -> {
            agents.setAll(found);
            if (found.size() == 1) {
                agent.set(found.get(0));
            }
        }, pane.failing("newRun.agentsFailed"));
    }

    /** Starts the run, if the form is complete; the dialog closes when the service answers. */
    public void start() {
        if (!canStart.get()) {
            return;
        }
        String agentName = agent.get().name();
        String text = prompt.get().strip();
        boolean alone = unattended.get();
        pane.change(() -> service.start(actor, agentName, text, alone),
                run -> started.set(new Started(run, agentName)), pane.failing("newRun.failed"));
    }

    /** The run this dialog started last, {@code null} until it did; the dialog closes when it is set. */
    public ReadOnlyObjectProperty<Started> startedProperty() {
        return started.getReadOnlyProperty();
    }

    private boolean mayStart() {
        return actor.has(Role.OPERATOR) || actor.has(Role.ADMIN);
    }

    /** The agents to pick from. */
    public ObservableList<AgentSummary> agents() {
        return agents;
    }

    public ObjectProperty<AgentSummary> agentProperty() {
        return agent;
    }

    public StringProperty promptProperty() {
        return prompt;
    }

    public BooleanProperty unattendedProperty() {
        return unattended;
    }

    /** Whether agents are loading or the run is starting. */
    public ReadOnlyBooleanProperty busyProperty() {
        return pane.busyProperty();
    }

    /** What the service said when it could not list agents or start the run; empty otherwise. */
    public ReadOnlyStringProperty problemProperty() {
        return pane.problemProperty();
    }

    /** What the form still needs before it can start ("Pick an agent."), empty when complete. */
    public StringBinding missingProperty() {
        return missing;
    }

    /** The picked agent's model, trust zone and tool groups, and whether it is scripted. */
    public StringBinding agentDetailsProperty() {
        return agentDetails;
    }

    public BooleanBinding canStartProperty() {
        return canStart;
    }

    /** A run the dialog started, with the agent it was started with. */
    public record Started(StartedRun run, String agent) {
    }
}
