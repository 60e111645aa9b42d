package io.countersign.console.card;

import io.countersign.engine.grant.GrantSpan;
import io.countersign.service.Allowance;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;

import io.countersign.console.common.Banner;
import io.countersign.console.common.Messages;
import io.countersign.engine.decision.Decision.CallVerdict;
import io.countersign.service.RunCard;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * An approval card: the run's context, the calls that wait with a verdict each, the calls a rule already
 * refused, a reason for denials, and the answer the service gave to the decision.
 */
public final class ApprovalCardViewModel {
    private final CardSession session;
    private final Messages messages;
    private final List<String> reasonPresets;

    private final ObservableList<PendingCallItem> calls = FXCollections.observableArrayList();
    private final ObservableList<RunCard.RefusedCallView> refused = FXCollections.observableArrayList();
    private final StringProperty denyReason = new SimpleStringProperty("");
    private final ReadOnlyIntegerWrapper approving = new ReadOnlyIntegerWrapper();
    private final ReadOnlyIntegerWrapper denying = new ReadOnlyIntegerWrapper();
    private final ReadOnlyIntegerWrapper undecided = new ReadOnlyIntegerWrapper();
    /** Open edits not yet checked fine: the card waits for them. */
    private final ReadOnlyIntegerWrapper editsBlocking = new ReadOnlyIntegerWrapper();
    /** "Approve and allow": the span of the standing grants the approval makes, or {@code null} for none. */
    private final ObjectProperty<GrantSpan> allowFor = new SimpleObjectProperty<>();
    private final BooleanBinding editable;
    private final BooleanBinding fourEyesBlocks;
    private final BooleanBinding canSubmit;
    private final StringBinding submitText;
    private Consumer<HeldDecision> onSubmit = held -> {
    };
    /** Verdicts taken back with Undo, given again when their card shows unchanged. */
    private HeldDecision restoring;

    public ApprovalCardViewModel(CardSession session) {
        this.session = Objects.requireNonNull(session, "session");
        this.messages = session.messages();
        this.reasonPresets = List.of(messages.get("card.reason.wrongTarget"), messages.get("card.reason.notNeeded"),
                messages.get("card.reason.unsafeArguments"));
        var card = session.cardProperty();
        editable = Bindings.createBooleanBinding(session::open, card, session.finishedProperty(),
                session.busyProperty());
        fourEyesBlocks = Bindings.createBooleanBinding(
                () -> card.get() != null && card.get().selfStarted() && card.get().fourEyes() && approving.get() > 0,
                card, approving);
        canSubmit = Bindings.createBooleanBinding(
                () -> editable.get() && !calls.isEmpty() && undecided.get() == 0 && !fourEyesBlocks.get()
                        && editsBlocking.get() == 0,
                editable, calls, undecided, fourEyesBlocks, editsBlocking);
        submitText = Bindings.createStringBinding(this::describeSubmit, editable, session.busyProperty(),
                approving, denying, undecided, fourEyesBlocks);
    }

    /** Opens the card of a run: asks the service for it in the background. */
    public void open(String runId) {
        calls.clear();
        refused.clear();
        recount();
        session.open(runId, this::show);
    }

    /** Opens the card of the same run again, dropping the verdicts given so far. */
    public void reload() {
        if (session.runId() != null) {
            open(session.runId());
        }
    }

    /** Shows a card: every call undecided, no reason yet, and a word up front when the person cannot approve. */
    public void show(RunCard shown) {
        List<PendingCallItem> items = new ArrayList<>();
        for (RunCard.PendingCallView call : shown.pending()) {
            PendingCallItem item = new PendingCallItem(items.size() + 1, call,
                    new CallEdit(session, shown.runId(), call.index(), call.argumentsJson()));
            item.verdictProperty().addListener((o, was, now) -> recount());
            item.edit().blocksProperty().addListener((o, was, now) -> recount());
            items.add(item);
        }
        calls.setAll(items);
        refused.setAll(shown.refused());
        denyReason.set("");
        allowFor.set(null);
        restore(shown, items);
        session.shown(shown);
        recount();
        if (shown.stranded() != null) {
            // before anything else: no decision taken here could be carried out
            session.say(Banner.warning(messages.get("card.gatewayStopped")));
        } else if (!session.mayDecide()) {
            session.say(Banner.info(messages.get("card.readOnlyRole")));
        } else if (shown.selfStarted() && shown.fourEyes()) {
            session.say(Banner.warning(messages.get("card.fourEyes")));
        } else if (shown.approvals().quorum()) {
            session.say(Banner.info(session.approvalsText(shown.approvals())));
        }
    }

    /** Gives the card of a decision taken back its verdicts and reason again, when it opens unchanged. */
    public void restoreOnOpen(HeldDecision held) {
        restoring = Objects.requireNonNull(held, "held");
    }

    private void restore(RunCard shown, List<PendingCallItem> items) {
        HeldDecision held = restoring;
        restoring = null;
        if (held == null || !held.runId().equals(shown.runId()) || !held.digest().equals(shown.digest())) {
            return;
        }
        for (CallVerdict verdict : held.verdicts()) {
            items.stream().filter(item -> item.call().index() == verdict.index()).findFirst().ifPresent(item ->
                    item.verdictProperty().set(verdict.approved() ? Verdict.APPROVE : Verdict.DENY));
        }
        denyReason.set(held.reason() == null ? "" : held.reason());
    }

    /** Approves every waiting call. */
    public void approveAll() {
        setAll(Verdict.APPROVE);
    }

    /** Denies every waiting call; the reason field is next. */
    public void denyAll() {
        setAll(Verdict.DENY);
    }

    private void setAll(Verdict verdict) {
        if (session.open()) {
            calls.forEach(call -> call.verdictProperty().set(verdict));
        }
    }

    /** Toggles the verdict of the call at a position on the card (1 for the first); other positions do nothing. */
    public void toggle(int position) {
        if (session.open() && position >= 1 && position <= calls.size()) {
            PendingCallItem item = calls.get(position - 1);
            item.verdictProperty().set(item.verdict().toggled());
        }
    }

    /**
     * Hands the verdicts, if the card can be submitted, to whoever holds them before they are sent (the window,
     * for Undo); the card is done with them.
     */
    public void submit() {
        if (!canSubmit.get()) {
            return;
        }
        RunCard shown = session.cardProperty().get();
        String reason = denyReason.get() == null || denyReason.get().isBlank() ? null : denyReason.get().strip();
        Allowance allowance = allowFor.get() == null || approving.get() == 0 ? null
                : Allowance.sameArguments(allowFor.get());
        onSubmit.accept(new HeldDecision(shown.runId(), shown.agent(), shown.digest(), verdicts(), reason,
                allowance));
    }

    /** The verdicts as the service takes them; a denial carries the reason, if the person gave one. */
    public List<CallVerdict> verdicts() {
        String reason = denyReason.get() == null || denyReason.get().isBlank() ? null : denyReason.get().strip();
        return calls.stream()
                .map(call -> call.verdict() != Verdict.APPROVE ? CallVerdict.deny(call.call().index(), reason)
                        : call.edit().editedArguments() != null
                        ? CallVerdict.approveEdited(call.call().index(), call.edit().editedArguments())
                        : CallVerdict.approve(call.call().index()))
                .toList();
    }

    /** Who takes the verdicts a person submitted. */
    public void setOnSubmit(Consumer<HeldDecision> listener) {
        this.onSubmit = Objects.requireNonNull(listener, "listener");
    }

    private void recount() {
        approving.set((int) calls.stream().filter(call -> call.verdict() == Verdict.APPROVE).count());
        denying.set((int) calls.stream().filter(call -> call.verdict() == Verdict.DENY).count());
        undecided.set((int) calls.stream().filter(call -> call.verdict() == Verdict.UNDECIDED).count());
        editsBlocking.set((int) calls.stream().filter(call -> call.verdict() == Verdict.APPROVE
                && call.edit().blocksProperty().get()).count());
    }

    private String describeSubmit() {
        if (session.busyProperty().get() && session.cardProperty().get() != null) {
            return messages.get("card.submit.busy");
        }
        if (!editable.get()) {
            return messages.get("card.submit");
        }
        if (undecided.get() > 0) {
            return messages.get("card.submit.undecided", undecided.get());
        }
        if (fourEyesBlocks.get()) {
            return messages.get("card.submit.fourEyes");
        }
        List<String> parts = new ArrayList<>();
        if (approving.get() > 0) {
            parts.add(messages.get("card.submit.approve", approving.get()));
        }
        if (denying.get() > 0) {
            parts.add(messages.get("card.submit.deny", denying.get()));
        }
        return messages.get("card.submit.what", String.join(", ", parts));
    }

    /** The loading, the banner and the finality this card shares with the input card. */
    public CardSession session() {
        return session;
    }

    /** The waiting calls, in the order of the turn. */
    public ObservableList<PendingCallItem> calls() {
        return calls;
    }

    /** The calls a rule refused before the card was shown. */
    public ObservableList<RunCard.RefusedCallView> refused() {
        return refused;
    }

    /** The span of the grants an approval makes ("Approve and allow"), or {@code null} to ask every time. */
    public ObjectProperty<GrantSpan> allowForProperty() {
        return allowFor;
    }

    /** The reason sent with denials ("Wrong target" or the person's own words); may stay empty. */
    public StringProperty denyReasonProperty() {
        return denyReason;
    }

    /** The preset reasons offered for a denial. */
    public List<String> reasonPresets() {
        return reasonPresets;
    }

    /** Whether the verdicts can be changed: a card is shown, waits, and the person may decide it. */
    public BooleanBinding editableProperty() {
        return editable;
    }

    public BooleanBinding canSubmitProperty() {
        return canSubmit;
    }

    /** What submitting will do: "Submit: 1 approve, 1 deny". */
    public StringBinding submitTextProperty() {
        return submitText;
    }
}
