package io.countersign.service;

import io.countersign.engine.access.SettingChange;

/** What became of a request to save, change or remove a declarative rule. */
public sealed interface RuleResult {

    /** Saved as an audited setting change, live in every process from now. */
    record Saved(SettingChange change) implements RuleResult {
    }

    /** The rule already was so; nothing was recorded. */
    record Unchanged() implements RuleResult {
    }

    /** Not saved, for this reason (one sentence: for a condition, its line, column and the fields that exist). */
    record Refused(String reason) implements RuleResult {
    }

    /**
     * Not saved: the deny rule would have refused every one of the {@code calls} calls recorded in the last seven
     * days. Saving it anyway needs {@code force}.
     */
    record RefusesEverything(int calls) implements RuleResult {
    }
}
