package io.countersign.console.inbox;

import io.countersign.engine.state.RunStatus;
import io.countersign.engine.port.WaitingRun;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.collections.ObservableSet;

/**
 * The approval cards picked in the inbox to decide at once: {@code X} picks or drops the open card, Shift-click
 * picks every card from the last one picked to the one clicked, Ctrl+A every approval card the filter shows. The
 * selection stays within the filter: a card the filter hides, or that no longer waits, drops out of it. Input
 * forms and damaged runs are never picked, since one reason cannot answer them.
 */
public final class InboxSelection {
    private final ObservableList<WaitingRun> visible;
    private final ObservableSet<String> chosen = FXCollections.observableSet(new LinkedHashSet<>());
    /** One wrapper for every listener: a wrapper made per call holds its listeners only while it lives. */
    private final ObservableSet<String> shown = FXCollections.unmodifiableObservableSet(chosen);
    private final ReadOnlyIntegerWrapper count = new ReadOnlyIntegerWrapper();
    private String anchor;

    /** @param visible the runs the inbox shows now, in its order */
    public InboxSelection(ObservableList<WaitingRun> visible) {
        this.visible = Objects.requireNonNull(visible, "visible");
        visible.addListener((ListChangeListener<WaitingRun>) change -> {
            Set<String> shown = new LinkedHashSet<>();
            visible.forEach(run -> shown.add(run.runId()));
            chosen.retainAll(shown);
            recount();
        });
    }

    /** Whether a run may be part of a batch: an approval card whose state could be read. */
    public static boolean selectable(WaitingRun run) {
        return run != null && run.status() == RunStatus.WAITING_FOR_APPROVAL && !run.damaged();
    }

    /** Picks the run, or drops it when it was picked; it becomes where a Shift-click range starts. */
    public void toggle(WaitingRun run) {
        if (!selectable(run)) {
            return;
        }
        if (!chosen.remove(run.runId())) {
            chosen.add(run.runId());
        }
        anchor = run.runId();
        recount();
    }

    /** Picks every selectable run the inbox shows from the last one picked to this one (only this one at first). */
    public void extendTo(WaitingRun run) {
        if (run == null) {
            return;
        }
        int to = indexOf(run.runId());
        int from = anchor == null ? -1 : indexOf(anchor);
        if (to < 0) {
            return;
        }
        if (from < 0) {
            from = to;
        }
        for (int i = Math.min(from, to); i <= Math.max(from, to); i++) {
            if (selectable(visible.get(i))) {
                chosen.add(visible.get(i).runId());
            }
        }
        anchor = run.runId();
        recount();
    }

    /** Picks every approval card the filter shows. */
    public void selectAll() {
        visible.stream().filter(InboxSelection::selectable).forEach(run -> chosen.add(run.runId()));
        recount();
    }

    public void clear() {
        chosen.clear();
        anchor = null;
        recount();
    }

    /** Drops these runs, once decided. */
    public void drop(List<String> runIds) {
        runIds.forEach(chosen::remove);
        recount();
    }

    public boolean isSelected(String runId) {
        return chosen.contains(runId);
    }

    /** The picked runs, in the inbox's order. */
    public List<String> runIds() {
        return visible.stream().map(WaitingRun::runId).filter(chosen::contains).toList();
    }

    /** The picked run ids, for cells that show whether theirs is picked. */
    public ObservableSet<String> chosen() {
        return shown;
    }

    public ReadOnlyIntegerProperty countProperty() {
        return count.getReadOnlyProperty();
    }

    private int indexOf(String runId) {
        for (int i = 0; i < visible.size(); i++) {
            if (visible.get(i).runId().equals(runId)) {
                return i;
            }
        }
        return -1;
    }

    private void recount() {
        count.set(chosen.size());
    }
}
