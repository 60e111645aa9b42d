package io.countersign.console.inbox;

import io.countersign.engine.port.WaitingRun;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What the inbox's search and filters ask for: every word of the search, and the agent, first tool and kind.
 *
 * @param agent {@code null} for any agent
 * @param tool  {@code null} for any tool
 */
record InboxFilter(String search, String agent, String tool, InboxKind kind) {

    /** The runs this filter lets through, searching each in its text from {@code searchTexts}. */
    Predicate<WaitingRun> over(Map<String, String> searchTexts) {
        List<String> words = List.of(search.toLowerCase(Locale.ROOT).trim().split("\\s+"));
        return run -> (agent == null || agent.equals(run.agent()))
                && (tool == null || tool.equals(run.firstTool()))
                && kind.matches(run.status())
                && containsAll(searchTexts.getOrDefault(run.runId(), ""), words);
    }

    private static boolean containsAll(String text, List<String> words) {
        for (String word : words) {
            if (!text.contains(word)) {
                return false;
            }
        }
        return true;
    }
}
