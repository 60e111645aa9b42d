package io.countersign.console.main;

import io.countersign.console.card.CardDone;
import io.countersign.console.common.Messages;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.port.WaitingRun;
import java.util.List;
import java.util.Objects;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** The toasts the window shows, and what they say after a decision, a new run, or runs that arrived. */
final class WindowToasts {
    private final Messages messages;
    private final ObservableList<Toast> toasts = FXCollections.observableArrayList();
    private long ids;

    WindowToasts(Messages messages) {
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    Toast add(String text, String runId, boolean warning, Toast.Link link) {
        Toast toast = new Toast(++ids, text, runId, warning, link);
        toasts.add(toast);
        return toast;
    }

    /** Puts a new toast where an old one was (the old one may have gone meanwhile: then it joins the end). */
    Toast replace(Toast old, String text, boolean warning, Toast.Link link) {
        Toast toast = new Toast(++ids, text, old.runId(), warning, link);
        int index = toasts.indexOf(old);
        if (index < 0) {
            toasts.add(toast);
        } else {
            toasts.set(index, toast);
        }
        return toast;
    }

    void dismiss(Toast toast) {
        toasts.remove(toast);
    }

    /** After typed input was sent (approvals and denials are held first: {@link HeldDecisions}). */
    void done(CardDone done) {
        add(DecisionToastText.of(done, messages), done.runId(), !done.result().failed().isEmpty(),
                Toast.Link.TIMELINE);
    }

    /** After a run started from New run; one that waits offers its card. */
    void started(String agent, String runId, RunStatus status) {
        boolean waits = status == RunStatus.WAITING_FOR_APPROVAL || status == RunStatus.WAITING_FOR_INPUT;
        add(messages.get("toast.started", agent, messages.get("toast.status." + status.name())), runId, false,
                waits ? Toast.Link.CARD : Toast.Link.TIMELINE);
    }

    /** Runs that newly wait while the window has not the focus. */
    void arrived(List<WaitingRun> runs) {
        WaitingRun first = runs.get(0);
        add(runs.size() == 1
                ? messages.get("toast.arrived", first.agent(), first.firstTool() == null ? "" : first.firstTool())
                : messages.get("toast.arrivedMany", runs.size()), null, false, Toast.Link.NONE);
    }

    ObservableList<Toast> list() {
        return toasts;
    }
}
