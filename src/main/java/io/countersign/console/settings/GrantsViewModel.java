package io.countersign.console.settings;

import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.grant.Grant;
import io.countersign.service.AgentSummary;
import io.countersign.service.Grants;
import io.countersign.service.RunService;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.Bindings;
import javafx.application.Platform;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The grants part of the settings screen: the live standing grants with who made them, their scope, uses and
 * expiry; Revoke for the selected one (offered to an admin and to its maker; the service refuses anyone else and
 * its refusal is shown); and per agent whether its grants are switched off, which admins change.
 */
public final class GrantsViewModel {
    private final Optional<Grants> service;
    private final RunService runs;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ZoneId zone;

    private final ObservableList<GrantRow> grants = FXCollections.observableArrayList();
    private final ObservableList<AgentGrantSwitch> agents = FXCollections.observableArrayList();
    private final ObjectProperty<GrantRow> selected = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final BooleanBinding revocable;
    private AutoCloseable subscription;

    public GrantsViewModel(Optional<Grants> service, RunService runs, Actor actor, Executor executor,
                           Messages messages, ZoneId zone) {
        this.service = Objects.requireNonNull(service, "service");
        this.runs = Objects.requireNonNull(runs, "runs");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.zone = Objects.requireNonNull(zone, "zone");
        revocable = Bindings.createBooleanBinding(() -> !busy.get() && selected.get() != null
                && (actor.isAdmin() || actor.name().equals(selected.get().grantedBy())), busy, selected);
    }

    private record Read(List<Grant> grants, List<String> off, List<AgentSummary> agents) {
    }

    /**
     * Reads the grants and follows the runs' changes while {@code shown}: grants are made with decisions, and their
     * uses grow as calls run. Stops following when it is not shown.
     */
    public void setShown(boolean shown) {
        if (shown && subscription == null) {
            subscription = runs.onChange(() -> Platform.runLater(this::load));
            load();
        } else if (!shown && subscription != null) {
            try {
                subscription.close();
            } catch (Exception e) {
                System.getLogger(GrantsViewModel.class.getName()).log(System.Logger.Level.DEBUG,
                        "closing the change subscription failed", e);
            }
            subscription = null;
        }
    }

    /** Reads the live grants, the agents and which of them have grants switched off. */
    public void load() {
        if (service.isEmpty()) {
            problem.set(messages.get("grants.unavailable"));
            return;
        }
        Grants grantService = service.get();
        Tasks.create(() -> new Read(grantService.list(actor), grantService.switchedOff(actor), runs.agents(actor)))
                .onSuccess(this::show)
                .onError(failure -> problem.set(messages.get("grants.loadFailed", describe(failure))))
                .runOnce(executor);
    }

    private void show(Read read) {
        Set<String> off = Set.copyOf(read.off());
        String previous = selected.get() == null ? null : selected.get().id();
        List<GrantRow> rows = read.grants().stream().map(grant -> GrantRow.of(grant, zone,
                messages.get("grants.thisRun"), messages.get("grants.live"),
                off.contains(grant.agent()) ? messages.get("grants.agentOff") : null)).toList();
        // the runs change often; a list that did not change is left as it is, with its selection
        if (!rows.equals(grants)) {
            grants.setAll(rows);
            selected.set(grants.stream().filter(row -> row.id().equals(previous)).findFirst().orElse(null));
        }
        List<AgentGrantSwitch> switches = read.agents().stream().map(agent -> new AgentGrantSwitch(agent.name(),
                off.contains(agent.name()))).toList();
        if (!switches.equals(agents)) {
            agents.setAll(switches);
        }
    }

    /** Revokes the selected grant; the loop no longer consults it. */
    public void revoke() {
        GrantRow row = selected.get();
        if (row == null || busy.get() || service.isEmpty()) {
            return;
        }
        busy.set(true);
        problem.set("");
        status.set("");
        Tasks.create(() -> service.get().revoke(actor, row.id()))
                .onSuccess(revoked -> {
                    busy.set(false);
                    status.set(messages.get("grants.revoked", row.id(), row.agent(), row.tool()));
                    load();
                })
                .onError(failure -> {
                    busy.set(false);
                    problem.set(messages.get("grants.revokeFailed", row.id(), describe(failure)));
                    load();
                })
                .runOnce(executor);
    }

    /** Switches an agent's grants off, or back on. */
    public void switchGrants(String agent, boolean off) {
        if (busy.get() || service.isEmpty()) {
            return;
        }
        busy.set(true);
        problem.set("");
        status.set("");
        Tasks.create(() -> service.get().switchGrants(actor, agent, !off))
                .onSuccess(changed -> {
                    busy.set(false);
                    status.set(messages.get(off ? "grants.switchedOff" : "grants.switchedOn", agent));
                    load();
                })
                .onError(failure -> {
                    busy.set(false);
                    problem.set(messages.get("grants.switchFailed", agent, describe(failure)));
                    load();
                })
                .runOnce(executor);
    }

    private static String describe(Throwable failure) {
        return Optional.ofNullable(failure.getMessage()).orElse(failure.getClass().getSimpleName());
    }

    /** The live grants, newest first. */
    public ObservableList<GrantRow> grants() {
        return grants;
    }

    /** Every agent, with whether its grants are switched off. */
    public ObservableList<AgentGrantSwitch> agents() {
        return agents;
    }

    /** The grant Revoke applies to. */
    public ObjectProperty<GrantRow> selectedProperty() {
        return selected;
    }

    /** Whether Revoke is offered: a grant is selected and the person is an admin or made it. */
    public BooleanBinding revocableProperty() {
        return revocable;
    }

    /** Whether the person may switch agents' grants off: admins. */
    public boolean maySwitch() {
        return actor.isAdmin();
    }

    /** A failure to read or change the grants, or the service's refusal; empty otherwise. */
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
