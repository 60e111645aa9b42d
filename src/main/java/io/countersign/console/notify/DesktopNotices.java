package io.countersign.console.notify;

import io.countersign.console.common.LiveClock;
import io.countersign.console.common.Messages;
import io.countersign.console.inbox.InboxViewModel;
import io.countersign.engine.Actor;
import io.countersign.service.RunCard;
import io.countersign.service.RunService;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.logging.Logger;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;

/**
 * The console's desktop notifications: whether this person muted them, whether the window has the focus, and,
 * once {@link #deliverTo} names the desktop's notifier, the notices of the cards that start waiting, are
 * escalated or near their deadline while the window is in the background. Each notice reads its card's tool
 * names and goes to the notifier on the executor, one after another, never on the JavaFX thread; a click on a
 * notification comes back to the JavaFX thread and opens its card.
 */
public final class DesktopNotices {
    private static final Logger LOG = Logger.getLogger(DesktopNotices.class.getName());

    private final RunService service;
    private final Actor actor;
    private final InboxViewModel inbox;
    private final LiveClock clock;
    private final Messages messages;
    private final Executor executor;
    private final BooleanProperty muted = new SimpleBooleanProperty(false);
    private final BooleanProperty windowFocused = new SimpleBooleanProperty(true);
    private final Set<String> problemsLogged = new LinkedHashSet<>();
    private NoticeWatch watch;
    private DesktopNotifier notifier;
    /** The last notice on its way: the next one goes after it, so a card's notices arrive in order. */
    private CompletableFuture<Void> sending = CompletableFuture.completedFuture(null);

    public DesktopNotices(RunService service, Actor actor, InboxViewModel inbox, LiveClock clock, Messages messages,
                          Executor executor) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * Sends the notices to the desktop from now on; on the JavaFX thread.
     *
     * @param open opens a run's card and brings the window forward; called on the JavaFX thread
     */
    public void deliverTo(DesktopNotifier desktop, Consumer<String> open) {
        Objects.requireNonNull(desktop, "desktop");
        Objects.requireNonNull(open, "open");
        if (watch != null) {
            throw new IllegalStateException("the notices already go to " + notifier.description());
        }
        notifier = desktop;
        desktop.onOpen(runId -> Platform.runLater(() -> open.accept(runId)));
        watch = new NoticeWatch(inbox.allRuns(), inbox.loadedProperty(), actor, clock,
                () -> windowFocused.get() || muted.get(), this::send, this::withdraw);
    }

    /** Stops announcing and lets go of the desktop, after the notices on their way. */
    public void stop() {
        if (watch == null) {
            return;
        }
        watch.stop();
        watch = null;
        DesktopNotifier closing = notifier;
        queue(closing::close);
    }

    private void send(Notice notice) {
        DesktopNotifier desktop = notifier;
        queue(() -> {
            Optional<Notice> named = withToolNames(notice);
            named.ifPresent(ready -> desktop.show(NoticeText.of(ready, messages)));
        });
    }

    private void withdraw(String runId) {
        DesktopNotifier desktop = notifier;
        queue(() -> desktop.withdraw(runId));
    }

    /**
     * The notice naming every tool that waits, from the card; empty when the card no longer waits. A card that
     * cannot be read now is announced with the first tool the inbox knows.
     */
    private Optional<Notice> withToolNames(Notice notice) {
        Optional<RunCard> card;
        try {
            card = service.card(actor, notice.runId());
        } catch (RuntimeException e) {
            LOG.fine(() -> "the card of run " + notice.runId() + " cannot be read for its notice: " + e);
            return Optional.of(notice);
        }
        return card.map(found -> notice.withTools(toolNames(found)));
    }

    private static List<String> toolNames(RunCard card) {
        if (card.input() != null) {
            return List.of(card.input().tool());
        }
        return card.pending().stream().map(RunCard.PendingCallView::tool).distinct().toList();
    }

    private void queue(Runnable work) {
        sending = sending.thenRunAsync(() -> {
            try {
                work.run();
            } catch (DesktopNotifier.NotifierException e) {
                logOnce(e.getMessage());
            } catch (RuntimeException e) {
                logOnce("a desktop notice failed: " + e);
            }
        }, executor);
    }

    /** The same problem is logged once: a desktop without a notification service says so at every notice. */
    private void logOnce(String problem) {
        boolean first;
        synchronized (problemsLogged) {
            first = problemsLogged.add(problem);
        }
        if (first) {
            LOG.warning(() -> "desktop notifications are not shown: " + problem);
        }
    }

    /** Whether this person muted the desktop notifications (the status bar's switch). */
    public BooleanProperty mutedProperty() {
        return muted;
    }

    /** Whether the window has the focus: while it has, nothing is announced. */
    public BooleanProperty windowFocusedProperty() {
        return windowFocused;
    }
}
