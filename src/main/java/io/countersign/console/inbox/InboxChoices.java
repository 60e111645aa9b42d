package io.countersign.console.inbox;

import io.countersign.engine.port.WaitingRun;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javafx.collections.ObservableList;

/** The agents and first tools of some runs, each sorted, for the inbox's filters. */
record InboxChoices(List<String> agents, List<String> tools) {
    static InboxChoices of(List<WaitingRun> runs) {
        Set<String> agentNames = new TreeSet<>();
        Set<String> toolNames = new TreeSet<>();
        for (WaitingRun run : runs) {
            if (run.agent() != null) {
                agentNames.add(run.agent());
            }
            if (run.firstTool() != null) {
                toolNames.add(run.firstTool());
            }
        }
        return new InboxChoices(List.copyOf(agentNames), List.copyOf(toolNames));
    }

    /** Puts these choices into the filters' lists, leaving a list that has them already untouched. */
    void showIn(ObservableList<String> agentChoices, ObservableList<String> toolChoices) {
        if (!agentChoices.equals(agents)) {
            agentChoices.setAll(agents);
        }
        if (!toolChoices.equals(tools)) {
            toolChoices.setAll(tools);
        }
    }
}
