package io.countersign.console.notify;

import io.countersign.console.common.LiveClock;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.port.WaitingRun;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javafx.beans.value.ObservableBooleanValue;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;

/**
 * Decides, on the JavaFX thread, which cards to announce: one that starts waiting, one escalated to a role the
 * person holds, and one whose deadline is near, each once per pause, and none while the person is at the window
 * or has muted the notices. It learns of them from the inbox's list, which the service's changes keep current,
 * and from the live clock. The cards of the inbox's first load are not announced as new.
 */
final class NoticeWatch {
    /** A deadline is near with under a minute or under a tenth of its span left. */
    static final Duration NEAR_LEFT = Duration.ofSeconds(60);
    static final double NEAR_SHARE = 0.10;

    private final ObservableList<WaitingRun> runs;
    private final ObservableBooleanValue loaded;
    private final Actor actor;
    private final LiveClock clock;
    private final BooleanSupplier quiet;
    private final Consumer<Notice> announce;
    private final Consumer<String> gone;
    private final Set<String> seen = new HashSet<>();
    private final Set<String> escalated = new HashSet<>();
    private final Set<String> nearAnnounced = new HashSet<>();
    private final ListChangeListener<WaitingRun> onRuns = this::runsChanged;

    /**
     * @param quiet    whether to say nothing now: the window has the focus, or the person muted the notices
     * @param announce gets each notice to show
     * @param gone     gets the run of a card that left the inbox, whose notice may be taken back
     */
    NoticeWatch(ObservableList<WaitingRun> runs, ObservableBooleanValue loaded, Actor actor, LiveClock clock,
                BooleanSupplier quiet, Consumer<Notice> announce, Consumer<String> gone) {
        this.runs = Objects.requireNonNull(runs, "runs");
        this.loaded = Objects.requireNonNull(loaded, "loaded");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.quiet = Objects.requireNonNull(quiet, "quiet");
        this.announce = Objects.requireNonNull(announce, "announce");
        this.gone = Objects.requireNonNull(gone, "gone");
        // what waits already when the watch starts is not new
        runs.forEach(run -> arrived(run, false));
        runs.addListener(onRuns);
        clock.nowProperty().addListener((o, was, now) -> checkDeadlines());
    }

    /** Stops following the inbox. */
    void stop() {
        runs.removeListener(onRuns);
    }

    private void runsChanged(ListChangeListener.Change<? extends WaitingRun> change) {
        while (change.next()) {
            change.getAddedSubList().forEach(run -> arrived(run, true));
            for (WaitingRun removed : change.getRemoved()) {
                if (runs.stream().noneMatch(run -> run.runId().equals(removed.runId()))) {
                    gone.accept(removed.runId());
                }
            }
        }
        checkDeadlines();
    }

    private void arrived(WaitingRun run, boolean mayAnnounce) {
        String pause = pause(run);
        boolean escalatedToMe = run.escalatedTo(actor);
        boolean newPause = seen.add(pause);
        boolean newEscalation = escalatedToMe && escalated.add(pause);
        if (!mayAnnounce || !loaded.get() || run.damaged() || quiet.getAsBoolean()) {
            return;
        }
        if (newPause || newEscalation) {
            if (near(run.deadline(), clock.now())) {
                // the notice says how little is left already: no second one for the same deadline
                nearAnnounced.add(pause);
            }
            announce.accept(notice(run, escalatedToMe ? Notice.Reason.ESCALATED : Notice.Reason.WAITING));
        }
    }

    /** A near deadline is announced when the person is away, even if it came near while they were at the window. */
    private void checkDeadlines() {
        if (!loaded.get() || quiet.getAsBoolean()) {
            return;
        }
        Instant now = clock.now();
        for (WaitingRun run : List.copyOf(runs)) {
            if (!run.damaged() && near(run.deadline(), now) && nearAnnounced.add(pause(run))) {
                announce.accept(notice(run, Notice.Reason.DEADLINE_NEAR));
            }
        }
    }

    static boolean near(RunDeadline deadline, Instant now) {
        if (deadline == null) {
            return false;
        }
        Duration left = deadline.left(now);
        return !left.isZero() && (left.compareTo(NEAR_LEFT) < 0 || deadline.shareLeft(now) < NEAR_SHARE);
    }

    private Notice notice(WaitingRun run, Notice.Reason reason) {
        return new Notice(run.runId(), reason, run.status() == RunStatus.WAITING_FOR_INPUT, run.agent(),
                run.firstTool() == null ? List.of() : List.of(run.firstTool()), run.initiator(),
                run.deadline() == null ? null : run.deadline().describeLeft(clock.now()));
    }

    /** One pause of a run: a run that pauses again is a new card. */
    private static String pause(WaitingRun run) {
        return run.runId() + "@" + run.waitingSince();
    }
}
