package io.countersign.engine.rules;

import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.port.ConditionLanguage;
import io.countersign.engine.port.ConditionLanguage.Bindings;
import io.countersign.engine.port.ConditionLanguage.Compilation;
import java.util.Objects;

/** A declarative rule with its condition compiled: what every call and every what-if evaluates. */
public final class CompiledRule {
    private final DeclarativeRule rule;
    private final ConditionLanguage.Condition condition;
    private final boolean readsHistory;
    private final String tool;

    private CompiledRule(DeclarativeRule rule, ConditionLanguage.Condition condition, boolean readsHistory,
                         String tool) {
        this.rule = rule;
        this.condition = condition;
        this.readsHistory = readsHistory;
        this.tool = tool;
    }

    /** The outcome of checking a rule: compiled, or why not, with the place in the condition. */
    public sealed interface Check {
        record Valid(CompiledRule rule) implements Check {
        }

        record Invalid(Compilation.Invalid error) implements Check {
        }
    }

    /**
     * Compiles a rule's condition. An {@code ask} rule may not read {@code history}: it is decided before the card,
     * where the history is not read (a {@code deny} rule that reads it is asked only when the call executes).
     */
    public static Check check(DeclarativeRule rule, ConditionLanguage language) {
        Objects.requireNonNull(rule, "rule");
        Compilation compilation = language.compile(rule.condition());
        if (compilation instanceof Compilation.Invalid invalid) {
            return new Check.Invalid(invalid);
        }
        Compilation.Compiled compiled = (Compilation.Compiled) compilation;
        if (compiled.readsHistory() && rule.action() instanceof DeclarativeRule.Action.Ask) {
            return new Check.Invalid(new Compilation.Invalid(1, 1, "an ask rule is decided before the card is"
                    + " shown, where the history is not read; leave out history, or make it a deny rule"));
        }
        return new Check.Valid(new CompiledRule(rule, compiled.condition(), compiled.readsHistory(),
                compiled.tool()));
    }

    public DeclarativeRule rule() {
        return rule;
    }

    /** True when the condition reads {@code history}: the rule is then asked only when a call executes. */
    public boolean readsHistory() {
        return readsHistory;
    }

    /** Whether a call of this configuration is one the rule sees. */
    public boolean covers(String configuration, boolean gateway) {
        return rule.enabled() && rule.scope().covers(configuration, gateway);
    }

    /**
     * False when the condition is about another tool ({@code tool == 'NAME' && …}), so it is false for this call
     * whatever else it says, and need not be evaluated.
     */
    public boolean concerns(String toolName) {
        return tool == null || tool.equals(toolName);
    }

    /**
     * Whether the condition is true for the call.
     *
     * @throws ConditionLanguage.ConditionFailedException when it cannot be evaluated for this call
     */
    public boolean matches(Bindings call) {
        return condition.matches(call);
    }
}
