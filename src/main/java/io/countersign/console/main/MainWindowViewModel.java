package io.countersign.console.main;

import io.countersign.console.card.ApprovalCardViewModel;
import io.countersign.console.card.CardDone;
import io.countersign.console.card.CardSession;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.LiveClock;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Theme;
import io.countersign.console.inbox.InboxViewModel;
import io.countersign.console.input.InputCardViewModel;
import io.countersign.console.newrun.NewRunViewModel;
import io.countersign.console.timeline.RunsViewModel;
import io.countersign.console.timeline.TimelineViewModel;
import io.countersign.engine.Actor;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.port.WaitingRun;
import java.util.List;
import java.util.Objects;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.ObservableList;

/**
 * The window as a whole: which list and which detail it shows, the title with the waiting count, the status
 * bar, the toasts, and the keyboard actions, which go to whatever card is open.
 */
public final class MainWindowViewModel {
    private final InboxViewModel inbox;
    private final ApprovalCardViewModel approval;
    private final InputCardViewModel input;
    private final TimelineViewModel timeline;
    private final RunsViewModel runs;
    /** The person at the console, with the roles the store gives them now (see {@link #watchRoles}). */
    private final PersonRoles person;
    private final Messages messages;
    private final LiveClock clock;
    private final ConnectionState connection;

    private final ReadOnlyObjectWrapper<Detail> detail = new ReadOnlyObjectWrapper<>(new Detail.Empty());
    private final ObjectProperty<Section> section;
    private final ObjectProperty<Theme> theme;
    private final BooleanProperty windowFocused = new SimpleBooleanProperty(true);
    private final WindowToasts toasts;
    private final HeldDecisions held;
    private final OpenCardActions cards;
    /** What the inbox showed when the person left it, shown again when they come back. */
    private Detail inboxDetail = new Detail.Empty();
    /** The full-width screen a timeline was opened from ("Open run"), where Back returns; {@code null} for none. */
    private Section timelineFrom;
    private final StringBinding title;
    private final StringBinding status;
    private RoleWatch roleWatch;

    public MainWindowViewModel(InboxViewModel inbox, ApprovalCardViewModel approval, InputCardViewModel input,
                               TimelineViewModel timeline, RunsViewModel runs, NewRunViewModel newRun, Actor actor,
                               String store, Theme theme, Messages messages, LiveClock clock,
                               ConnectionState connection, DecisionSending sending) {
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.approval = Objects.requireNonNull(approval, "approval");
        this.input = Objects.requireNonNull(input, "input");
        this.timeline = Objects.requireNonNull(timeline, "timeline");
        this.runs = Objects.requireNonNull(runs, "runs");
        this.person = new PersonRoles(Objects.requireNonNull(actor, "actor"), messages);
        this.messages = Objects.requireNonNull(messages, "messages");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.connection = Objects.requireNonNull(connection, "connection");
        this.theme = new SimpleObjectProperty<>(Objects.requireNonNull(theme, "theme"));
        this.toasts = new WindowToasts(messages);
        this.cards = new OpenCardActions(approval, input, detail.getReadOnlyProperty());
        this.held = new HeldDecisions(sending, actor, connection, inbox, toasts, messages, clock.zone());
        this.section = new SimpleObjectProperty<>(person.firstSection());
        // no count until the inbox has loaded: "nothing waiting" would be wrong while thousands load
        title = Bindings.createStringBinding(() -> !inbox.loadedProperty().get() ? messages.get("main.title.loading")
                : inbox.allRuns().isEmpty() ? messages.get("main.title.empty")
                : messages.get("main.title", inbox.allRuns().size()), inbox.allRuns(), inbox.loadedProperty());
        status = Bindings.createStringBinding(() -> messages.get("main.status", store,
                        messages.get(connection.isConnected() ? "main.connected" : "main.disconnected"),
                        actor.name(), person.roles().get(), messages.get("main.theme." + this.theme.get().name())),
                connection.connectedProperty(), this.theme, person.roles());

        inbox.selectedProperty().addListener((o, was, now) -> openRun(was, now));
        section.addListener((o, was, now) -> {
            runs.setShown(now == Section.RUNS);
            switchDetail(was, now);
        });
        inbox.setArrivalListener(this::arrived);
        approval.setOnSubmit(decision -> {
            held.hold(decision);
            leftCard();
        });
        input.setOnDone(this::inputSent);
        newRun.startedProperty().addListener((o, was, now) -> {
            if (now != null) {
                toasts.started(now.agent(), now.run().runId(), now.run().status());
                inbox.refresh();
            }
        });
    }

    /** Loads the inbox and keeps it current, for people who may see it; opens the first section. */
    public void start() {
        if (person.sections().contains(Section.INBOX)) {
            inbox.start();
        }
        runs.setShown(section.get() == Section.RUNS);
        if (roleWatch != null) {
            roleWatch.start(this::rolesChanged);
        }
    }

    /** Sends the decisions still held for Undo, and stops listening to the service. */
    public void stop() {
        held.sendAll();
        inbox.stop();
        runs.setShown(false);
        if (roleWatch != null) {
            roleWatch.stop();
        }
    }

    /**
     * Follows the person's roles from {@link #start()} on: when an admin changes them (in this console or another
     * process), the sidebar shows the sections they may use now and a toast says so.
     */
    public void watchRoles(RoleWatch watch) {
        this.roleWatch = Objects.requireNonNull(watch, "watch");
    }

    /** The person's roles changed: the sidebar, the status bar and the actions follow; a toast says why. */
    void rolesChanged(Actor now) {
        boolean lost = person.change(now);
        if (!person.sections().contains(section.get())) {
            section.set(person.firstSection());
        }
        if (person.sections().contains(Section.INBOX)) {
            inbox.start();
        } else {
            inbox.stop();
        }
        toasts.add(messages.get("toast.rolesChanged", person.roles().get()), null, lost, Toast.Link.NONE);
    }

    private void openRun(WaitingRun was, WaitingRun now) {
        if (now == null) {
            if (was != null && inbox.hidden(was.runId()) && showsCard()) {
                // the search hid the open card and left nothing to show: no card stays open to act on unseen
                detail.set(new Detail.Empty());
            } else if (showsCard()) {
                cardSession().recheck();
            }
            return;
        }
        if (was != null && was.runId().equals(now.runId()) && was.status() == now.status()) {
            // the same card, refreshed: whatever the person entered stays, a changed card says so
            if (!was.digest().equals(now.digest())) {
                (now.status() == RunStatus.WAITING_FOR_INPUT ? input.session() : approval.session()).markChanged();
            }
            return;
        }
        section.set(Section.INBOX);
        if (now.status() == RunStatus.WAITING_FOR_INPUT) {
            detail.set(new Detail.InputCard(now.runId()));
            input.open(now.runId());
        } else {
            detail.set(new Detail.ApprovalCard(now.runId()));
            approval.open(now.runId());
        }
    }

    /**
     * Moves the live clock on, and retries the inbox while the store cannot be reached or the inbox's own last load
     * failed (a change announced meanwhile would otherwise be missed until the next one).
     */
    public void tick() {
        clock.tick();
        if (!connection.isConnected() || inbox.lastLoadFailed()) {
            inbox.refresh();
        }
    }

    /** Shows a run's timeline; {@link #back()} returns to what was shown. */
    public void openTimeline(String runId) {
        Detail current = detail.get();
        Detail back = current instanceof Detail.Timeline shown ? shown.back() : current;
        detail.set(new Detail.Timeline(runId, back));
        timeline.open(runId);
    }

    /**
     * Shows a run's timeline beside the runs list, from a screen that has no detail pane of its own; {@link #back()}
     * returns to that screen.
     */
    public void showRun(String runId) {
        Section from = section.get();
        section.set(Section.RUNS);
        timelineFrom = from == Section.RUNS ? null : from;
        openTimeline(runId);
    }

    /** Leaves a timeline for the card, page or screen it was opened from. */
    public void back() {
        if (detail.get() instanceof Detail.Timeline shown) {
            detail.set(shown.back());
            if (timelineFrom != null && shown.back() instanceof Detail.Empty) {
                section.set(timelineFrom);
            }
        }
    }

    /**
     * Each section owns its detail pane: the Runs list starts with nothing chosen and never shows the inbox's card;
     * the inbox gets back what it showed.
     */
    private void switchDetail(Section was, Section now) {
        if (was == Section.INBOX) {
            inboxDetail = detail.get();
        }
        if (now != Section.RUNS) {
            timelineFrom = null;
        }
        if (now == Section.RUNS) {
            detail.set(new Detail.Empty());
        } else if (now == Section.INBOX) {
            if (inboxDetail instanceof Detail.Timeline shown) {
                // the Runs list may have shown another run's timeline meanwhile
                timeline.open(shown.runId());
            }
            detail.set(inboxDetail);
        }
    }

    /** Shows the next card of the inbox (J). */
    public void next() {
        if (leaveTimelineForInbox()) {
            inbox.selectNext();
        }
    }

    /** Shows the previous card of the inbox (K). */
    public void previous() {
        if (leaveTimelineForInbox()) {
            inbox.selectPrevious();
        }
    }

    /** Goes back to the inbox for J and K; false for a person who has none. */
    private boolean leaveTimelineForInbox() {
        if (!person.sections().contains(Section.INBOX)) {
            return false;
        }
        section.set(Section.INBOX);
        if (detail.get() instanceof Detail.Timeline shown && !(shown.back() instanceof Detail.Empty)) {
            detail.set(shown.back());
        }
        return true;
    }

    /** Switches between the light and the dark theme. */
    public void toggleTheme() {
        theme.set(theme.get().other());
    }

    /** Takes a toast away. */
    public void dismiss(Toast toast) {
        toasts.dismiss(toast);
    }

    /** Takes back the decision a toast offers to undo: nothing is sent, and its card opens again as it was. */
    public void undo(Toast toast) {
        held.undo(toast.runId()).ifPresent(decision -> {
            approval.restoreOnOpen(decision);
            openCard(decision.runId());
        });
    }

    /** Opens a run's card in the inbox, if it waits there (a search that hides it is cleared). */
    public void openCard(String runId) {
        if (person.sections().contains(Section.INBOX)) {
            section.set(Section.INBOX);
            inbox.show(runId);
        }
    }

    private void inputSent(CardDone done) {
        toasts.done(done);
        inbox.removeAndAdvance(done.runId());
        leftCard();
        inbox.refresh();
    }

    /** After a card was decided: the next one opened, or, when none is left, no card stays. */
    private void leftCard() {
        if (inbox.selectedProperty().get() == null) {
            detail.set(new Detail.Empty());
        }
    }

    private void arrived(List<WaitingRun> runs) {
        if (!windowFocused.get()) {
            toasts.arrived(runs);
        }
    }

    private boolean showsCard() {
        return detail.get() instanceof Detail.ApprovalCard || detail.get() instanceof Detail.InputCard;
    }

    private CardSession cardSession() {
        return detail.get() instanceof Detail.InputCard ? input.session() : approval.session();
    }

    /** Whether the person may start runs and decide cards now (supervisors look only). */
    public BooleanBinding mayActProperty() {
        return person.mayAct();
    }

    public ReadOnlyObjectProperty<Detail> detailProperty() {
        return detail.getReadOnlyProperty();
    }

    /** The sections of the sidebar this person may use now, in sidebar order. */
    public ObservableList<Section> sections() {
        return person.sections();
    }

    public ObjectProperty<Section> sectionProperty() {
        return section;
    }

    public ObjectProperty<Theme> themeProperty() {
        return theme;
    }

    /** Whether the window has the focus; runs that arrive while it has not are announced with a toast. */
    public BooleanProperty windowFocusedProperty() {
        return windowFocused;
    }

    public ObservableList<Toast> toasts() {
        return toasts.list();
    }

    /** What the keys A, D, 1–9 and Enter do to the card that is open. */
    public OpenCardActions cards() {
        return cards;
    }

    /** The Runs list. */
    public RunsViewModel runs() {
        return runs;
    }

    /** "Countersign · 3 waiting". */
    public StringBinding titleProperty() {
        return title;
    }

    /** "store: … · connected · maria · operator · light". */
    public StringBinding statusProperty() {
        return status;
    }

    public String userName() {
        return person.person().name();
    }

    /** The person's roles now, lower case: "operator, admin". */
    public ReadOnlyStringProperty rolesProperty() {
        return person.roles();
    }

    public InboxViewModel inbox() {
        return inbox;
    }

    public ConnectionState connection() {
        return connection;
    }

    public Messages messages() {
        return messages;
    }
}
