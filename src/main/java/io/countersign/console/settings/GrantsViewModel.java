package io.countersign.console.settings;

import io.countersign.console.common.ChangeFollower;
import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneFeedback;
import io.countersign.console.common.PaneState;
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
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.Bindings;
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
    private final Messages messages;
    private final PaneState pane;
    private final ZoneId zone;

    private final ObservableList<GrantRow> grants = FXCollections.observableArrayList();
    private final ObservableList<AgentGrantSwitch> agents = FXCollections.observableArrayList();
    private final ObjectProperty<GrantRow> selected = new SimpleObjectProperty<>();
    private final BooleanBinding revocable;
    private final ChangeFollower changes = new ChangeFollower(this::subscribe, this::load);

    public GrantsViewModel(Optional<Grants> service, RunService runs, Actor actor, Executor executor,
                           Messages messages, ZoneId zone) {
        this.service = Objects.requireNonNull(service, "service");
        this.runs = Objects.requireNonNull(runs, "runs");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.pane = new PaneState(executor, messages);
        this.zone = Objects.requireNonNull(zone, "zone");
        revocable = Bindings.createBooleanBinding(() -> !pane.isBusy() && selected.get() != null
                && (actor.isAdmin() || actor.name().equals(selected.get().grantedBy())), pane.busyProperty(),
                selected);
    }

    private record Read(List<Grant> grants, List<String> off, List<AgentSummary> agents) {
    }

    /**
     * Reads the grants and follows the runs' changes while {@code shown}: grants are made with decisions, and their
     * uses grow as calls run. Stops following when it is not shown.
     */
    public void setShown(boolean shown) {
        changes.follow(shown);
    }

    private AutoCloseable subscribe(Runnable changed) {
        return runs.onChange(changed);
    }

    /** Reads the live grants, the agents and which of them have grants switched off. */
    public void load() {
        if (service.isEmpty()) {
            pane.problem(messages.get("grants.unavailable"));
            return;
        }
        Grants grantService = service.get();
        pane.read(() -> new Read(grantService.list(actor), grantService.switchedOff(actor), runs.agents(actor)),
                this::show, "grants.loadFailed");
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
        if (row == null || pane.isBusy() || service.isEmpty()) {
            return;
        }
        changeThenLoad(() -> service.get().revoke(actor, row.id()),
                messages.get("grants.revoked", row.id(), row.agent(), row.tool()), "grants.revokeFailed", row.id());
    }

    /** Switches an agent's grants off, or back on. */
    public void switchGrants(String agent, boolean off) {
        if (pane.isBusy() || service.isEmpty()) {
            return;
        }
        changeThenLoad(() -> service.get().switchGrants(actor, agent, !off),
                messages.get(off ? "grants.switchedOff" : "grants.switchedOn", agent), "grants.switchFailed", agent);
    }

    /** Runs a change and reads the grants again however it went: a refused change may mean they moved on. */
    private void changeThenLoad(Callable<?> change, String done, String failedKey, Object subject) {
        pane.change(change, changed -> {
            pane.status(done);
            load();
        }, failure -> {
            pane.fail(failure, failedKey, subject);
            load();
        });
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

    /** The problem, the status and whether a change is under way. */
    public PaneFeedback feedback() {
        return pane;
    }
}
