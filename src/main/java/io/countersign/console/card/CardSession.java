package io.countersign.console.card;

import io.countersign.console.common.Banner;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.FailureText;
import io.countersign.console.common.LiveClock;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.port.ApprovalProgress;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.state.DamagedRunException;
import io.countersign.service.NotPermittedException;
import io.countersign.service.RunCard;
import io.countersign.service.RunService;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * What every card shares, approval or input: which run it shows, loading it and sending a decision in the
 * background (answers for a card the person already left are dropped), the banner, and whether the card can
 * still be decided.
 */
public final class CardSession {
    private final RunService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ConnectionState connection;
    private final DecisionBanners banners;

    private final ReadOnlyObjectWrapper<RunCard> card = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Banner> banner = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final StringBinding waitingText;
    private final CardDeadline deadline;
    private String runId;
    private int generation;

    public CardSession(RunService service, Actor actor, Executor executor, LiveClock clock, Messages messages,
                       ConnectionState connection) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.connection = Objects.requireNonNull(connection, "connection");
        this.banners = new DecisionBanners(messages, clock.zone());
        waitingText = Bindings.createStringBinding(() -> card.get() == null ? ""
                        : messages.get("card.waiting", messages.elapsed(
                        Duration.between(card.get().waitingSince(), clock.now()))),
                card, clock.nowProperty());
        this.deadline = new CardDeadline(service, actor, executor, clock, messages, connection, banner::set);
    }

    /** Asks the service for the card of a run; {@code show} gets it, unless the person moved on meanwhile. */
    public void open(String runId, Consumer<RunCard> show) {
        this.runId = Objects.requireNonNull(runId, "runId");
        int asked = ++generation;
        card.set(null);
        banner.set(null);
        finished.set(false);
        busy.set(true);
        deadline.load(runId);
        Tasks.create(() -> service.card(actor, runId))
                .onSuccess(found -> {
                    if (asked == generation) {
                        connection.succeeded();
                        busy.set(false);
                        found.ifPresentOrElse(show, this::gone);
                    }
                })
                .onError(failure -> {
                    if (asked == generation) {
                        busy.set(false);
                        failed(failure);
                    }
                })
                .runOnce(executor);
    }

    /** The run of the card shown or asked for last, or {@code null}. */
    public String runId() {
        return runId;
    }

    /** Takes a card as shown: loaded, no banner, open for a decision. */
    public void shown(RunCard shown) {
        runId = shown.runId();
        busy.set(false);
        finished.set(false);
        banner.set(null);
        card.set(shown);
        deadline.load(shown.runId());
    }

    /**
     * Asks whether the shown card still waits as shown, and says so on the card when it does not; whatever the
     * person entered stays.
     */
    public void recheck() {
        RunCard shown = card.get();
        // while a decision is on its way, its answer says best where the card stands
        if (shown == null || finished.get() || busy.get()) {
            return;
        }
        int asked = generation;
        deadline.load(shown.runId());
        Tasks.create(() -> service.card(actor, shown.runId()))
                .onSuccess(found -> {
                    if (asked == generation) {
                        connection.succeeded();
                        found.ifPresentOrElse(current -> {
                            if (!current.digest().equals(shown.digest())) {
                                markChanged();
                            }
                        }, this::gone);
                    }
                })
                .onError(connection::failed)
                .runOnce(executor);
    }

    /** Sends a decision in the background; {@code handle} gets the answer, unless the person moved on. */
    public void decide(Callable<DecisionResult> decision, Consumer<DecisionResult> handle) {
        int asked = generation;
        busy.set(true);
        Tasks.create(decision)
                .onSuccess(result -> {
                    if (asked == generation) {
                        connection.succeeded();
                        busy.set(false);
                        handle.accept(result);
                    }
                })
                .onError(failure -> {
                    if (asked == generation) {
                        busy.set(false);
                        failed(failure);
                    }
                })
                .runOnce(executor);
    }

    /** Shows a decision the service turned down; a card decided elsewhere or no longer waiting is final. */
    public void refused(DecisionResult result) {
        busy.set(false);
        banners.of(result).ifPresent(banner::set);
        if (DecisionBanners.endsTheCard(result)) {
            finished.set(true);
        }
    }

    /** Says on the card that it changed since it was opened; Reload shows the new one. */
    public void markChanged() {
        if (card.get() != null && !finished.get()) {
            banner.set(new Banner(Banner.Kind.WARNING, messages.get("card.stale"), true));
        }
    }

    /** How far a card that needs several approvals is, as the card says it. */
    public String approvalsText(ApprovalProgress progress) {
        return banners.approvals(progress);
    }

    /** Shows a banner of the card's own. */
    public void say(Banner shown) {
        banner.set(shown);
    }

    /** Whether the person's roles let them decide cards at all (supervisors only look). */
    public boolean mayDecide() {
        return actor.has(Role.OPERATOR) || actor.has(Role.ADMIN);
    }

    /** Whether the person can still change and send the card. */
    public boolean open() {
        return card.get() != null && !finished.get() && !busy.get() && mayDecide();
    }

    public Messages messages() {
        return messages;
    }

    public RunService service() {
        return service;
    }

    public Actor actor() {
        return actor;
    }

    /** Where the card's background work runs. */
    public Executor executor() {
        return executor;
    }

    private void gone() {
        banner.set(Banner.info(messages.get("card.gone")));
        finished.set(true);
    }

    private void failed(Throwable failure) {
        if (failure instanceof NotPermittedException notPermitted) {
            banner.set(Banner.danger(messages.get("card.notPermitted", notPermitted.getMessage())));
        } else if (failure instanceof DamagedRunException damaged) {
            // one run's stored state, not the store: the card says so, loads nothing to decide, the console stays up
            banner.set(Banner.danger(messages.get("card.damaged", damaged.getMessage(), damaged.runId())));
        } else {
            connection.failed(failure);
            banner.set(new Banner(Banner.Kind.DANGER, messages.get("card.failed", FailureText.of(failure)),
                    true));
        }
    }

    public ReadOnlyObjectProperty<RunCard> cardProperty() {
        return card.getReadOnlyProperty();
    }

    /** What the card has to say (stale, decided elsewhere, four-eyes, ...), or {@code null}. */
    public ReadOnlyObjectProperty<Banner> bannerProperty() {
        return banner.getReadOnlyProperty();
    }

    /** Whether the card can no longer be decided (someone else did, or the run stopped waiting). */
    public ReadOnlyBooleanProperty finishedProperty() {
        return finished.getReadOnlyProperty();
    }

    /** Whether the card is loading or a decision is on its way. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** The card's deadline: time left and Extend. */
    public CardDeadline deadline() {
        return deadline;
    }

    /** "waiting 4 min", following the live clock. */
    public StringBinding waitingTextProperty() {
        return waitingText;
    }
}
