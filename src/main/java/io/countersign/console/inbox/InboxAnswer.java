package io.countersign.console.inbox;

import io.countersign.service.WaitingRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * An answer of the service made ready for the inbox: sorted oldest first, by run, with the text a search looks
 * in and the filter choices. Built off the JavaFX thread; it shares nothing with the view model.
 */
record InboxAnswer(List<WaitingRun> sorted, Map<String, WaitingRun> byId, Map<String, String> searchTexts,
                   InboxChoices choices) {
    private static final Comparator<WaitingRun> OLDEST_FIRST =
            Comparator.comparing(WaitingRun::waitingSince).thenComparing(WaitingRun::runId);

    static InboxAnswer of(List<WaitingRun> fresh) {
        List<WaitingRun> sorted = new ArrayList<>(fresh);
        sorted.sort(OLDEST_FIRST);
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
     * place by age.
     */
    void mergeInto(List<WaitingRun> runs) {
        // a run that paused again sits elsewhere by age: take it out and put it back in its place
        runs.removeIf(run -> {
            WaitingRun now = byId.get(run.runId());
            return now == null || !now.waitingSince().equals(run.waitingSince());
        });
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

    private static String searchText(WaitingRun run) {
        return String.join("\n", Objects.toString(run.agent(), ""), Objects.toString(run.initiator(), ""),
                Objects.toString(run.firstTool(), ""), Objects.toString(run.prompt(), ""), run.runId())
                .toLowerCase(Locale.ROOT);
    }
}
