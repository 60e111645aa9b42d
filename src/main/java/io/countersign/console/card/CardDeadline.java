package io.countersign.console.card;

import io.countersign.console.common.Banner;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.LiveClock;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.DeadlineRule;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.service.DeadlineExtension;
import io.countersign.service.RunService;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.ObjectBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * The deadline of the card shown: the time left, following the live clock (which a timeline ticks), how urgent
 * that is, and the Extend that moves it once. Loaded and extended in the background; never touches a Node.
 */
public final class CardDeadline {
    /** How near the deadline is, as a share of its span left. */
    public enum Urgency {
        /** No deadline. */
        NONE,
        /** A quarter of the span or more left. */
        CALM,
        /** Under 25 % left. */
        AMBER,
        /** Under 10 % left, or overdue. */
        RED
    }

    private final RunService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ConnectionState connection;
    private final Consumer<Banner> say;
    private final ReadOnlyObjectWrapper<RunDeadline> deadline = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper extending = new ReadOnlyBooleanWrapper();
    private final StringBinding text;
    private final ObjectBinding<Urgency> urgency;
    private final BooleanBinding canExtend;
    private String runId;
    private int generation;

    /** @param say shows a banner on the card: why an Extend was refused */
    CardDeadline(RunService service, Actor actor, Executor executor, LiveClock clock, Messages messages,
                 ConnectionState connection, Consumer<Banner> say) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.connection = Objects.requireNonNull(connection, "connection");
        this.say = Objects.requireNonNull(say, "say");
        text = Bindings.createStringBinding(() -> describe(deadline.get(), clock.now()), deadline,
                clock.nowProperty());
        urgency = Bindings.createObjectBinding(() -> urgency(deadline.get(), clock.now()), deadline,
                clock.nowProperty());
        canExtend = Bindings.createBooleanBinding(() -> deadline.get() != null && !deadline.get().extended()
                && !extending.get(), deadline, extending);
    }

    /**
     * Asks for the deadline of the card of this run; an answer for a card left meanwhile is dropped. Asked again
     * for the same card (it may have been escalated or extended elsewhere), the time left stays shown meanwhile.
     */
    void load(String shownRunId) {
        if (!shownRunId.equals(runId)) {
            deadline.set(null);
        }
        runId = shownRunId;
        int asked = ++generation;
        Tasks.create(() -> service.deadline(actor, shownRunId))
                .onSuccess(found -> {
                    if (asked == generation) {
                        deadline.set(found.orElse(null));
                    }
                })
                .onError(connection::failed)
                .runOnce(executor);
    }

    /** Moves the deadline once by its span; a refusal is said on the card. */
    public void extend() {
        if (!canExtend.get()) {
            return;
        }
        int asked = generation;
        String extended = runId;
        extending.set(true);
        Tasks.create(() -> service.extend(actor, extended))
                .onSuccess(result -> {
                    extending.set(false);
                    if (asked != generation) {
                        return;
                    }
                    connection.succeeded();
                    if (result instanceof DeadlineExtension.Extended done) {
                        deadline.set(done.deadline());
                        say.accept(Banner.info(messages.get("card.deadline.extended",
                                DeadlineRule.formatSpan(done.deadline().span()))));
                    } else {
                        say.accept(Banner.warning(((DeadlineExtension.Refused) result).reason()));
                        load(extended);
                    }
                })
                .onError(failure -> {
                    extending.set(false);
                    connection.failed(failure);
                })
                .runOnce(executor);
    }

    private String describe(RunDeadline shown, Instant now) {
        if (shown == null) {
            return "";
        }
        String left = messages.get("card.deadline.left", shown.describeLeft(now),
                messages.get("card.deadline.on." + shown.action().code()));
        if (shown.escalated()) {
            left = messages.get("card.deadline.escalated") + " · " + left;
        }
        return shown.extended() ? left + " · " + messages.get("card.deadline.extendedBy", shown.extendedBy()) : left;
    }

    static Urgency urgency(RunDeadline shown, Instant now) {
        if (shown == null) {
            return Urgency.NONE;
        }
        double share = shown.shareLeft(now);
        return share < 0.10 ? Urgency.RED : share < 0.25 ? Urgency.AMBER : Urgency.CALM;
    }

    public ReadOnlyObjectProperty<RunDeadline> deadlineProperty() {
        return deadline.getReadOnlyProperty();
    }

    /** "12m 05s left · then denied", live; empty without a deadline. */
    public StringBinding textProperty() {
        return text;
    }

    public ObjectBinding<Urgency> urgencyProperty() {
        return urgency;
    }

    /** A deadline that was not extended yet, and no Extend on its way. */
    public BooleanBinding canExtendProperty() {
        return canExtend;
    }
}
