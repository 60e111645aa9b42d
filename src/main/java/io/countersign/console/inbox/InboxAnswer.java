package io.countersign.console.inbox;

import io.countersign.engine.port.WaitingRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javafx.collections.ObservableList;

/**
 * An answer of the service made ready for the inbox: sorted in the order chosen (oldest first, or by deadline), by
 * run, with the text a search looks in and the filter choices. Built off the JavaFX thread; it shares nothing with
 * the view model.
 */
record InboxAnswer(List<WaitingRun> sorted, Map<String, WaitingRun> byId, Map<String, String> searchTexts,
                   InboxChoices choices) {
    static InboxAnswer of(List<WaitingRun> fresh, Comparator<WaitingRun> order) {
        List<WaitingRun> sorted = new ArrayList<>(fresh);
        sorted.sort(order);
        Map<String, WaitingRun> byId = new HashMap<>();
        Map<String, String> searchTexts = new HashMap<>();
        for (WaitingRun run : sorted) {
            byId.put(run.runId(), run);
            searchTexts.put(run.runId(), searchText(run));
        }
        return new InboxAnswer(sorted, byId, searchTexts, InboxChoices.of(sorted));
    }

    /** The answer less the runs held back as they waited then; a run that paused again since is kept. */
    InboxAnswer without(Map<String, WaitingRun> held) {
        if (held.isEmpty()) {
            return this;
        }
        List<WaitingRun> kept = sorted.stream().filter(run -> {
            WaitingRun then = held.get(run.runId());
            return then == null || !then.waitingSince().equals(run.waitingSince());
        }).toList();
        if (kept.size() == sorted.size()) {
            return this;
        }
        Map<String, WaitingRun> keptById = new HashMap<>();
        Map<String, String> keptTexts = new HashMap<>();
        kept.forEach(run -> {
            keptById.put(run.runId(), run);
            keptTexts.put(run.runId(), searchTexts.get(run.runId()));
        });
        return new InboxAnswer(kept, keptById, keptTexts, InboxChoices.of(kept));
    }

    /**
     * Brings a list of runs to this answer in place: unchanged rows stay, gone rows leave, new rows take their
     * place in the order; rows out of order among themselves are all put in it again.
     */
    void mergeInto(ObservableList<WaitingRun> runs) {
        // a run that paused again sits elsewhere by age: take it out and put it back in its place
        runs.removeIf(run -> {
            WaitingRun now = byId.get(run.runId());
            return now == null || !now.waitingSince().equals(run.waitingSince());
        });
        if (!inOrder(runs)) {
            // another order (a deadline moved, the order chosen changed): rows in place would be in the wrong one
            runs.setAll(sorted);
            return;
        }
        for (int i = 0; i < sorted.size(); i++) {
            WaitingRun run = sorted.get(i);
            if (i < runs.size() && runs.get(i).runId().equals(run.runId())) {
                if (!runs.get(i).equals(run)) {
                    runs.set(i, run);
                }
            } else {
                runs.add(i, run);
            }
        }
    }

    /** Whether the rows kept stand in this answer's order among themselves. */
    private boolean inOrder(List<WaitingRun> runs) {
        Map<String, Integer> place = new HashMap<>();
        for (int i = 0; i < sorted.size(); i++) {
            place.put(sorted.get(i).runId(), i);
        }
        int last = -1;
        for (WaitingRun run : runs) {
            int at = place.get(run.runId());
            if (at < last) {
                return false;
            }
            last = at;
        }
        return true;
    }

    private static String searchText(WaitingRun run) {
        return String.join("\n", Objects.toString(run.agent(), ""), Objects.toString(run.initiator(), ""),
                Objects.toString(run.firstTool(), ""), Objects.toString(run.prompt(), ""), run.runId())
                .toLowerCase(Locale.ROOT);
    }
}
