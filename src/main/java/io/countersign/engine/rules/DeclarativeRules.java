package io.countersign.engine.rules;

import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.declarative.CallFacts;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.invocation.ApprovalAsk;
import io.countersign.engine.invocation.ApprovalAsks;
import io.countersign.engine.invocation.LiveRules;
import io.countersign.engine.invocation.PreApprovalInvocationRule;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.invocation.ToolInvocationRule;
import io.countersign.engine.port.ConditionLanguage;
import io.countersign.engine.port.DeclarativeRuleSource;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The declarative rules in force, as {@link LiveRules}: compiled once each time the saved rules change (never per
 * call), a {@code deny} rule as an invocation rule (a pre-approval one unless it reads {@code history}), an
 * {@code ask} rule as one more reason a call needs a person. Each call's facts are bound once and shared by every
 * rule. A rule whose condition fails refuses the call {@code rule_failed} (the invocation policy's failure code),
 * and a stored rule that no longer compiles refuses every call in its scope the same way: nothing here ever lets
 * a call run that would otherwise be stopped.
 */
public final class DeclarativeRules implements LiveRules {
    private final DeclarativeRuleSource source;
    private final ConditionLanguage language;
    private final ToolRegistry registry;
    private final Clock clock;
    private volatile Compiled compiled;
    // One call's bindings, shared by the rules asked about it in a row (the policy passes the same context to each).
    private volatile Bound lastBound;

    private record Compiled(List<DeclarativeRule> from, Snapshot snapshot) {
    }

    private record Bound(ToolInvocationContext context, ConditionLanguage.Bindings bindings) {
    }

    public DeclarativeRules(DeclarativeRuleSource source, ConditionLanguage language, ToolRegistry registry,
                            Clock clock) {
        this.source = Objects.requireNonNull(source, "source");
        this.language = Objects.requireNonNull(language, "language");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Snapshot current() {
        List<DeclarativeRule> saved = source.declarativeRules();
        Compiled now = compiled;
        if (now == null || now.from() != saved) {
            now = new Compiled(saved, compile(saved));
            compiled = now;
        }
        return now.snapshot();
    }

    /** The facts of a call as the conditions see them, from what every rule is given. */
    public CallFacts facts(ToolInvocationContext context) {
        AgentConfiguration configuration = context.configuration();
        Optional<Tool> tool = registry.find(context.toolName());
        return new CallFacts(context.toolName(),
                tool.filter(RemoteTool.class::isInstance).map(t -> ((RemoteTool) t).serverName()).orElse(""),
                context.arguments(), context.target(), configuration.name(),
                context.executionContext().actingUser().name(),
                context.executionContext().actingUser().roles().stream()
                        .map(role -> role.name().toLowerCase(Locale.ROOT)).sorted().toList(),
                tool.map(t -> t.dataClass().code()).orElse(""), configuration.model().trustZone().code(),
                tool.map(t -> t.effect().name().toLowerCase(Locale.ROOT)).orElse(""), clock.instant(),
                context.history().observations());
    }

    /** Whether a configuration is a gateway profile (its "model" is the MCP host) rather than an agent. */
    public static boolean gateway(AgentConfiguration configuration) {
        return configuration.model().hostDriven();
    }

    private ConditionLanguage.Bindings bindings(ToolInvocationContext context) {
        Bound bound = lastBound;
        if (bound != null && bound.context() == context) {
            return bound.bindings();
        }
        ConditionLanguage.Bindings fresh = language.bind(facts(context));
        lastBound = new Bound(context, fresh);
        return fresh;
    }

    private Snapshot compile(List<DeclarativeRule> saved) {
        List<ToolInvocationRule> rules = new ArrayList<>();
        List<ToolInvocationRule> preApproval = new ArrayList<>();
        List<CompiledRule> asks = new ArrayList<>();
        for (DeclarativeRule rule : saved) {
            if (!rule.enabled()) {
                continue;
            }
            if (CompiledRule.check(rule, language) instanceof CompiledRule.Check.Valid valid) {
                CompiledRule compiledRule = valid.rule();
                ToolInvocationRule asked = compiledRule.readsHistory() ? new AtExecution(compiledRule)
                        : new BeforeApproval(compiledRule);
                rules.add(asked);
                if (!compiledRule.readsHistory()) {
                    preApproval.add(asked);
                }
                if (rule.action() instanceof DeclarativeRule.Action.Ask) {
                    asks.add(compiledRule);
                }
            } else {
                ToolInvocationRule broken = new Broken(rule);
                rules.add(broken);
                preApproval.add(broken);
            }
        }
        List<CompiledRule> askRules = List.copyOf(asks);
        return new Snapshot(rules, preApproval, askRules.isEmpty() ? ApprovalAsks.NONE
                : context -> ask(askRules, context));
    }

    private ApprovalAsk ask(List<CompiledRule> askRules, ToolInvocationContext context) {
        AgentConfiguration configuration = context.configuration();
        boolean gateway = gateway(configuration);
        String first = null;
        int approvals = 0;
        String failed = null;
        for (CompiledRule rule : askRules) {
            if (!rule.covers(configuration.name(), gateway) || !rule.concerns(context.toolName())) {
                continue;
            }
            boolean asks;
            try {
                asks = rule.matches(bindings(context));
            } catch (RuntimeException failure) {
                failed = failed == null ? rule.rule().identifier() : failed;
                continue;
            }
            if (asks) {
                first = first == null ? rule.rule().identifier() : first;
                approvals = Math.max(approvals, ((DeclarativeRule.Action.Ask) rule.rule().action()).approvals());
            }
        }
        if (failed != null) {
            return new ApprovalAsk.Failed(failed);
        }
        return first == null ? ApprovalAsk.NONE : new ApprovalAsk.Asks(first, approvals);
    }

    /** A rule as the invocation policy asks it; an ask rule answers allow (the scan asked), or fails. */
    private class AtExecution implements ToolInvocationRule {
        private final CompiledRule rule;

        AtExecution(CompiledRule rule) {
            this.rule = rule;
        }

        @Override
        public String identifier() {
            return rule.rule().identifier();
        }

        @Override
        public boolean requiresCompleteHistory() {
            return rule.readsHistory();
        }

        @Override
        public ToolInvocationDecision decide(ToolInvocationContext context) {
            AgentConfiguration configuration = context.configuration();
            if (!rule.concerns(context.toolName()) || !rule.covers(configuration.name(), gateway(configuration))) {
                return ToolInvocationDecision.allow();
            }
            boolean matched = rule.matches(bindings(context));
            if (matched && rule.rule().action() instanceof DeclarativeRule.Action.Deny deny) {
                return ToolInvocationDecision.deny(deny.reasonCode(),
                        deny.explanation(context.executionContext().locale()));
            }
            return ToolInvocationDecision.allow();
        }
    }

    /** A rule that does not read the history, so it is asked before the card too. */
    private final class BeforeApproval extends AtExecution implements PreApprovalInvocationRule {
        BeforeApproval(CompiledRule rule) {
            super(rule);
        }
    }

    /** A stored rule this build cannot compile: it refuses every call it would see, as a failed rule does. */
    private static final class Broken implements PreApprovalInvocationRule {
        private final DeclarativeRule rule;

        Broken(DeclarativeRule rule) {
            this.rule = rule;
        }

        @Override
        public String identifier() {
            return rule.identifier();
        }

        @Override
        public ToolInvocationDecision decide(ToolInvocationContext context) {
            AgentConfiguration configuration = context.configuration();
            if (!rule.scope().covers(configuration.name(), gateway(configuration))) {
                return ToolInvocationDecision.allow();
            }
            throw new IllegalStateException("the condition of rule " + rule.identifier() + " does not compile");
        }
    }
}
