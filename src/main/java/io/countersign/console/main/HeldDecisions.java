package io.countersign.console.main;

import io.countersign.console.card.CardDone;
import io.countersign.console.card.DecisionBanners;
import io.countersign.console.card.HeldDecision;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.console.inbox.InboxViewModel;
import io.countersign.engine.Actor;
import io.countersign.engine.port.DecisionResult;
import io.countersign.service.RunService;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Approvals and denials held back for a few seconds before they go to the service, so that the person can take
 * one back with the Undo on its toast. A decision is sent when its time runs out, or at once when the window
 * closes, and only once: sending or taking it back ends its hold. While it is held its run stays out of the
 * inbox, so nobody here decides it twice; the toast then says what the service did with it.
 */
final class HeldDecisions {
    private record Held(HeldDecision decision, Toast toast, Runnable cancel) {
    }

    private final RunService service;
    private final Actor actor;
    private final Executor executor;
    private final DecisionSending.Delays delays;
    private final Duration undoTime;
    private final ConnectionState connection;
    private final InboxViewModel inbox;
    private final WindowToasts toasts;
    private final Messages messages;
    private final DecisionBanners banners;
    private final Map<String, Held> held = new LinkedHashMap<>();

    HeldDecisions(DecisionSending sending, Actor actor, ConnectionState connection, InboxViewModel inbox,
                  WindowToasts toasts, Messages messages, ZoneId zone) {
        this.service = sending.service();
        this.executor = sending.executor();
        this.delays = sending.delays();
        this.undoTime = sending.undoTime();
        this.actor = Objects.requireNonNull(actor, "actor");
        this.connection = Objects.requireNonNull(connection, "connection");
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.toasts = Objects.requireNonNull(toasts, "toasts");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.banners = new DecisionBanners(messages, zone);
    }

    /** Holds a decision: its run leaves the inbox (the next card opens) and a toast offers Undo. */
    void hold(HeldDecision decision) {
        if (held.containsKey(decision.runId())) {
            // a second submit of a card already held cannot happen through the inbox; never send both
            return;
        }
        Toast toast = toasts.add(messages.get("toast.held", describe(decision), undoTime.toSeconds()),
                decision.runId(), false, Toast.Link.UNDO);
        Runnable cancel = delays.after(undoTime, () -> send(decision.runId()));
        held.put(decision.runId(), new Held(decision, toast, cancel));
        inbox.hold(decision.runId());
    }

    /** Takes a held decision back: nothing was sent; the card returns. Empty when it was sent already. */
    Optional<HeldDecision> undo(String runId) {
        Held taken = held.remove(runId);
        if (taken == null) {
            return Optional.empty();
        }
        taken.cancel().run();
        toasts.dismiss(taken.toast());
        inbox.release(runId);
        return Optional.of(taken.decision());
    }

    /** Sends every held decision now (the window closes). */
    void sendAll() {
        new ArrayList<>(held.keySet()).forEach(this::send);
    }

    private void send(String runId) {
        Held sending = held.remove(runId);
        if (sending == null) {
            return;
        }
        sending.cancel().run();
        HeldDecision decision = sending.decision();
        // past its undo time: the toast no longer offers to take it back
        Toast shown = toasts.replace(sending.toast(), messages.get("toast.sending", describe(decision)), false,
                Toast.Link.NONE);
        Tasks.create(() -> service.decide(actor, runId, decision.digest(), decision.verdicts(),
                decision.allowance()))
                .onSuccess(result -> {
                    connection.succeeded();
                    answered(decision, shown, result);
                })
                .onError(failure -> {
                    connection.failed(failure);
                    notRecorded(decision, shown, true, messages.get("toast.sendFailed",
                            FailureText.of(failure)));
                })
                .runOnce(executor);
    }

    private void answered(HeldDecision decision, Toast shown, DecisionResult result) {
        if (result instanceof DecisionResult.Done done) {
            CardDone card = new CardDone(done.runId(), decision.agent(), done, false);
            toasts.replace(shown, DecisionToastText.of(card, messages), !done.failed().isEmpty(),
                    Toast.Link.TIMELINE);
            inbox.refresh();
        } else if (result instanceof DecisionResult.PartlyApproved partly) {
            // counted, and the card waits for the next approver: it comes back to the inbox as it stands now
            inbox.release(decision.runId());
            toasts.replace(shown, messages.get("toast.partlyApproved", decision.agent(),
                    banners.approvals(partly.progress())), false, Toast.Link.CARD);
            inbox.refresh();
        } else {
            notRecorded(decision, shown, !DecisionBanners.endsTheCard(result), banners.of(result).orElseThrow().text());
        }
    }

    /**
     * The decision did not go through, and the toast says why; a run that still waits comes back to the inbox to be
     * decided again, one decided meanwhile by someone else does not.
     */
    private void notRecorded(HeldDecision decision, Toast shown, boolean stillWaits, String why) {
        if (stillWaits) {
            inbox.release(decision.runId());
        }
        toasts.replace(shown, messages.get("toast.notRecorded", decision.agent(), why), true,
                stillWaits ? Toast.Link.CARD : Toast.Link.TIMELINE);
    }

    private String describe(HeldDecision decision) {
        return decision.denied() == 0 ? messages.get("toast.approving", decision.approved(), decision.agent())
                : decision.approved() == 0 ? messages.get("toast.denying", decision.denied(), decision.agent())
                : messages.get("toast.deciding", decision.approved(), decision.denied(), decision.agent());
    }
}
