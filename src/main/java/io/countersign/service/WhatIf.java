package io.countersign.service;

import io.countersign.engine.declarative.RecordedCall;
import java.util.List;
import java.util.Map;

/**
 * A rule evaluated over the calls recorded in a window: how many of them it sees (its scope), how many its
 * condition matches and on how many it fails (refused {@code rule_failed} if it were live), by agent and tool,
 * and the matched and failed calls themselves (the first {@link DefaultRuleService#LISTED} of them).
 */
public record WhatIf(int recorded, int inScope, int matched, int failed, Map<String, Integer> byAgent,
                     Map<String, Integer> byTool, List<RecordedCall> calls) {
    public WhatIf {
        byAgent = Map.copyOf(byAgent);
        byTool = Map.copyOf(byTool);
        calls = List.copyOf(calls);
    }

    /** The calls the rule would have acted on: matched, and failed (which a live rule refuses). */
    public int actedOn() {
        return matched + failed;
    }
}
