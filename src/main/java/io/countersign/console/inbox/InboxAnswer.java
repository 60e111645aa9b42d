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

    private static String searchText(WaitingRun run) {
        return String.join("\n", Objects.toString(run.agent(), ""), Objects.toString(run.initiator(), ""),
                Objects.toString(run.firstTool(), ""), Objects.toString(run.prompt(), ""), run.runId())
                .toLowerCase(Locale.ROOT);
    }
}
