package io.countersign.service;

import java.util.List;

/**
 * A configuration file that cannot be used, with every problem found, each naming its entry and field
 * ({@code agents[1] "triage": "toolGroups[0]" ...}). Nothing of the file was saved.
 */
public class ConfigurationException extends IllegalArgumentException {
    private final transient List<String> problems;

    public ConfigurationException(String source, List<String> problems) {
        super(source + ": " + (problems.size() == 1 ? problems.get(0)
                : problems.size() + " problems: " + String.join("; ", problems)) + "; nothing was imported");
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
