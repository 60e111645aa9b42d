package io.countersign.console.inbox;

import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.port.DecisionResult;
import io.countersign.service.BatchDecisions;
import io.countersign.service.BatchPlan;
import io.countersign.service.BatchResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Approve selected and Deny selected: the summary of what will happen per card (identical cards grouped with a
 * count), read in the background before anything is decided; then each card decided on its own on the digest the
 * summary showed, and the result naming every card decided elsewhere or changed meanwhile, which stay waiting.
 */
public final class BatchViewModel {
    /** Where the batch stands. */
    public enum Step {
        /** Nothing open: the bar under the list offers the two buttons. */
        CLOSED,
        /** The summary is shown; Confirm decides. */
        SUMMARY,
        /** What became of each card. */
        RESULT
    }

    private final BatchDecisions batch;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final InboxSelection selection;
    private final Runnable refreshInbox;

    private final StringProperty reason = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<Step> step = new ReadOnlyObjectWrapper<>(Step.CLOSED);
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ObservableList<String> lines = FXCollections.observableArrayList();
    /** One wrapper for every listener: a wrapper made per call holds its listeners only while it lives. */
    private final ObservableList<String> shownLines = FXCollections.unmodifiableObservableList(lines);
    private final ObjectProperty<BatchPlan> plan = new SimpleObjectProperty<>();
    private boolean approving;

    /** @param refreshInbox reads the inbox again once cards were decided */
    public BatchViewModel(BatchDecisions batch, Actor actor, Executor executor, Messages messages,
                          InboxSelection selection, Runnable refreshInbox) {
        this.batch = Objects.requireNonNull(batch, "batch");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.selection = Objects.requireNonNull(selection, "selection");
        this.refreshInbox = Objects.requireNonNull(refreshInbox, "refreshInbox");
    }

    /** Reads the selected cards and shows what approving (or denying) them will do; nothing is decided yet. */
    public void prepare(boolean approve) {
        List<String> runIds = selection.runIds();
        if (runIds.isEmpty() || busy.get()) {
            return;
        }
        if (!approve && reason.get().isBlank()) {
            problem.set(messages.get("batch.reasonNeeded"));
            return;
        }
        problem.set("");
        approving = approve;
        busy.set(true);
        Tasks.create(() -> batch.plan(actor, runIds))
                .onSuccess(read -> {
                    busy.set(false);
                    plan.set(read);
                    title.set(messages.get(approve ? "batch.title.approve" : "batch.title.deny", read.cards().size(),
                            read.waitingCalls()));
                    lines.setAll(summary(read));
                    step.set(Step.SUMMARY);
                })
                .onError(this::failed)
                .runOnce(executor);
    }

    /** Decides every card of the summary, each on its own. */
    public void confirm() {
        BatchPlan shown = plan.get();
        if (step.get() != Step.SUMMARY || shown == null || busy.get()) {
            return;
        }
        busy.set(true);
        String why = reason.get();
        boolean approve = approving;
        Tasks.create(() -> batch.decide(actor, shown, approve, approve ? null : why))
                .onSuccess(result -> {
                    busy.set(false);
                    selection.drop(result.outcomes().stream().filter(outcome -> outcome.done() || outcome.counted()
                            || outcome.decidedElsewhere()).map(BatchResult.Outcome::runId).toList());
                    title.set(messages.get("batch.title.result", result.done().size(), shown.cards().size()));
                    lines.setAll(result(result));
                    step.set(Step.RESULT);
                    refreshInbox.run();
                })
                .onError(this::failed)
                .runOnce(executor);
    }

    /** Back to the list: from the summary nothing was decided; after the result the reason is cleared. */
    public void close() {
        if (step.get() == Step.RESULT) {
            reason.set("");
        }
        step.set(Step.CLOSED);
        plan.set(null);
        lines.clear();
        problem.set("");
    }

    private List<String> summary(BatchPlan read) {
        List<String> shown = new ArrayList<>();
        for (BatchPlan.Group group : read.groups()) {
            shown.add(messages.get("batch.group", group.count(), group.describe()));
            if (group.first().approvals().quorum()) {
                shown.add(messages.get("batch.quorum", group.first().approvals().required(),
                        group.first().approvals().approvals().size()));
            }
        }
        if (read.refusedCalls() > 0) {
            shown.add(messages.get("batch.refused", read.refusedCalls()));
        }
        read.gone().forEach(runId -> shown.add(messages.get("batch.gone", runId)));
        return shown;
    }

    private List<String> result(BatchResult result) {
        List<String> shown = new ArrayList<>();
        for (BatchResult.Outcome outcome : result.outcomes()) {
            shown.add(outcomeLine(outcome));
        }
        return shown;
    }

    private String outcomeLine(BatchResult.Outcome outcome) {
        String card = outcome.agent() + " \u00b7 " + outcome.runId().substring(0, Math.min(8, outcome.runId().length()));
        if (outcome.done()) {
            return messages.get(approving ? "batch.outcome.approved" : "batch.outcome.denied", card);
        }
        if (outcome.counted()) {
            DecisionResult.PartlyApproved partly = (DecisionResult.PartlyApproved) outcome.result();
            return messages.get("batch.outcome.counted", card, partly.progress().approvals().size(),
                    partly.progress().required());
        }
        if (outcome.result() instanceof DecisionResult.AlreadyDecided decided) {
            return messages.get("batch.outcome.elsewhere", card, decided.decidedBy());
        }
        if (outcome.decidedElsewhere()) {
            return messages.get("batch.outcome.gone", card);
        }
        if (outcome.changed()) {
            return messages.get("batch.outcome.changed", card);
        }
        return messages.get("batch.outcome.refused", card, outcome.failure() != null ? outcome.failure()
                : refusal(outcome.result()));
    }

    private String refusal(DecisionResult result) {
        if (result instanceof DecisionResult.FourEyes) {
            return messages.get("card.fourEyes");
        }
        if (result instanceof DecisionResult.NotPermitted notPermitted) {
            return notPermitted.reason();
        }
        return result.getClass().getSimpleName();
    }

    private void failed(Throwable failure) {
        busy.set(false);
        problem.set(messages.get("batch.failed", FailureText.of(failure)));
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    public ReadOnlyObjectProperty<Step> stepProperty() {
        return step.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** Why nothing happened: a denial without a reason, or a failure to reach the store. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** The summary's lines, then the result's. */
    public ObservableList<String> lines() {
        return shownLines;
    }

    public InboxSelection selection() {
        return selection;
    }

    /** Whether the summary was opened to approve (else to deny). */
    public boolean approving() {
        return approving;
    }
}
