package io.countersign.console.inbox;

import io.countersign.console.common.ChangeFollower;
import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.RunSummary;
import io.countersign.service.ExecutionService;
import io.countersign.service.RunService;
import java.util.Objects;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The runs stopped with a call whose outcome nobody knows, below the inbox: nothing to decide, each for a person to
 * settle by showing its card again or ending it as failed. Kept current as the inbox is.
 */
public final class SettleViewModel {
    private final RunService runs;
    private final ExecutionService execution;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ObservableList<RunSummary> toSettle = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ChangeFollower changes = new ChangeFollower(this::subscribe, this::refresh);

    public SettleViewModel(RunService runs, ExecutionService execution, Actor actor, Executor executor,
                           Messages messages) {
        this.runs = Objects.requireNonNull(runs, "runs");
        this.execution = Objects.requireNonNull(execution, "execution");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    /** Loads the runs to settle and reloads them at every change the service reports. */
    public void start() {
        changes.follow(true);
    }

    /** Stops listening for changes. */
    public void stop() {
        changes.follow(false);
    }

    private AutoCloseable subscribe(Runnable changed) {
        return runs.onChange(changed);
    }

    /** Asks the service for the runs to settle, in the background. */
    public void refresh() {
        Tasks.create(() -> runs.toSettle(actor))
                .onSuccess(toSettle::setAll)
                .onError(failure -> problem.set(FailureText.of(failure)))
                .runOnce(executor);
    }

    /**
     * Settles a run in the background: {@code retry} shows its card again (approving it runs the calls again),
     * otherwise it ends as failed. What the service refuses is said in {@link #problemProperty()}.
     */
    public void settle(String runId, boolean retry) {
        problem.set("");
        Tasks.create(() -> execution.settleUnknownOutcome(actor, runId, retry))
                .onSuccess(result -> {
                    if (result instanceof DecisionResult.NotWaiting ended) {
                        problem.set(ended.failure() != null
                                ? messages.get("settle.ended", runId, ended.failure())
                                : messages.get("settle.nothing", runId, ended.status().code()));
                    }
                    refresh();
                })
                .onError(failure -> {
                    problem.set(FailureText.of(failure));
                    refresh();
                })
                .runOnce(executor);
    }

    /** Whether the person may settle runs (operators and admins); others see the list only. */
    public boolean maySettle() {
        return actor.has(Role.OPERATOR) || actor.has(Role.ADMIN);
    }

    /** The runs to settle, oldest first. */
    public ObservableList<RunSummary> toSettle() {
        return toSettle;
    }

    /** What went wrong with the last settling or loading, one sentence; empty when nothing did. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** How a run to settle reads in its row. */
    public String describe(RunSummary run) {
        return messages.get("settle.row", run.agent(), run.initiator(), run.prompt());
    }
}
