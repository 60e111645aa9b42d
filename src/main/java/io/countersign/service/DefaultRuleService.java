package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.declarative.CallFacts;
import io.countersign.engine.rules.CompiledRule;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.declarative.RecordedCall;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.port.ConditionLanguage;
import io.countersign.engine.port.RecordedCalls;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.ConfigurationStore;
import io.countersign.store.SettingsStore;
import io.countersign.store.StoredAgentConfiguration;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The declarative rules over the store's settings (saved as {@code invocation_rule:ID} setting changes) and its
 * recorded runs (the what-if). A what-if evaluates each recorded call's facts as the live rule would see them:
 * the tool's server, effect and data class as registered now, the person's roles as they are now, the agent's
 * trust zone from its stored configuration, {@code now} the run's last update, and the run's history before it.
 */
public final class DefaultRuleService implements RuleService {
    /** The calls a what-if lists; the counts cover every call. */
    public static final int LISTED = 200;
    /** The most calls a what-if reads. */
    public static final int MOST_CALLS = 200_000;
    /** The window of a rule's hits and of the warning for a rule that refuses everything. */
    public static final Duration WEEK = Duration.ofDays(7);
    private static final RuleTrial OUT_OF_SCOPE = new RuleTrial.OutOfScope();
    private static final RuleTrial NO_MATCH = new RuleTrial.NoMatch();

    private final SettingsStore settings;
    private final RecordedCalls recorded;
    private final ConfigurationStore configurations;
    private final ToolRegistry registry;
    private final ConditionLanguage language;
    private final Set<String> fixedRules;
    private final ActorDirectory users;
    private final Permissions permissions;
    private final Clock clock;

    public DefaultRuleService(SettingsStore settings, RecordedCalls recorded, ConfigurationStore configurations,
                              ToolRegistry registry, ConditionLanguage language, Set<String> fixedRules,
                              ActorDirectory users, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.recorded = Objects.requireNonNull(recorded, "recorded");
        this.configurations = Objects.requireNonNull(configurations, "configurations");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.language = Objects.requireNonNull(language, "language");
        this.fixedRules = Set.copyOf(fixedRules);
        this.users = Objects.requireNonNull(users, "users");
        this.permissions = new Permissions(users);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public List<RuleSummary> list(Actor actor) {
        permissions.requireNow(actor, Operation.VIEW_TOOL_SETTINGS);
        List<DeclarativeRule> rules = settings.declarativeRules();
        if (rules.isEmpty()) {
            return List.of();
        }
        List<RecordedCall> week = recorded.since(clock.instant().minus(WEEK), MOST_CALLS);
        Facts facts = new Facts();
        List<RuleSummary> summaries = new ArrayList<>(rules.size());
        for (DeclarativeRule rule : rules) {
            int hits = CompiledRule.check(rule, language) instanceof CompiledRule.Check.Valid valid
                    ? evaluate(valid.rule(), week, facts).actedOn() : 0;
            summaries.add(new RuleSummary(rule, hits));
        }
        return summaries;
    }

    @Override
    public Optional<DeclarativeRule> find(Actor actor, String identifier) {
        permissions.requireNow(actor, Operation.VIEW_TOOL_SETTINGS);
        return settings.declarativeRules().stream().filter(rule -> rule.identifier().equals(identifier)).findFirst();
    }

    @Override
    public Optional<String> check(Actor actor, DeclarativeRule rule) {
        permissions.requireNow(actor, Operation.VIEW_TOOL_SETTINGS);
        if (fixedRules.contains(rule.identifier())) {
            return Optional.of("\"" + rule.identifier() + "\" is the identifier of a built-in rule; choose another");
        }
        if (CompiledRule.check(rule, language) instanceof CompiledRule.Check.Invalid invalid) {
            return Optional.of("the condition does not compile: " + invalid.error().sentence());
        }
        return Optional.empty();
    }

    @Override
    public Optional<String> checkCondition(Actor actor, String condition) {
        permissions.requireNow(actor, Operation.VIEW_TOOL_SETTINGS);
        return language.compile(condition) instanceof ConditionLanguage.Compilation.Invalid invalid
                ? Optional.of(invalid.sentence()) : Optional.empty();
    }

    @Override
    public boolean readsHistory(DeclarativeRule rule) {
        return CompiledRule.check(rule, language) instanceof CompiledRule.Check.Valid valid
                && valid.rule().readsHistory();
    }

    @Override
    public RuleResult save(Actor actor, DeclarativeRule rule, boolean force) {
        Actor admin = permissions.requireNow(actor, Operation.CHANGE_TOOL_SETTINGS);
        Optional<String> problem = check(admin, rule);
        if (problem.isPresent()) {
            return new RuleResult.Refused(problem.get());
        }
        if (!force && rule.enabled() && rule.action() instanceof DeclarativeRule.Action.Deny) {
            WhatIf week = whatIf(admin, rule, clock.instant().minus(WEEK));
            if (week.recorded() > 0 && week.actedOn() == week.recorded()) {
                return new RuleResult.RefusesEverything(week.recorded());
            }
        }
        return settings.saveRule(rule, admin).<RuleResult>map(RuleResult.Saved::new)
                .orElseGet(RuleResult.Unchanged::new);
    }

    @Override
    public RuleResult remove(Actor actor, String identifier, String note) {
        Actor admin = permissions.requireNow(actor, Operation.CHANGE_TOOL_SETTINGS);
        Optional<DeclarativeRule> saved = find(admin, identifier);
        if (saved.isEmpty()) {
            return new RuleResult.Refused("no rule is named \"" + identifier + "\"" + known());
        }
        // the note goes into the last value, so the change that removes it says why
        settings.saveRule(saved.get().withNote(note), admin);
        return settings.removeRule(identifier, admin).<RuleResult>map(RuleResult.Saved::new)
                .orElseGet(RuleResult.Unchanged::new);
    }

    private String known() {
        List<String> names = settings.declarativeRules().stream().map(DeclarativeRule::identifier).toList();
        return names.isEmpty() ? "; no rules are saved" : "; the rules: " + String.join(", ", names);
    }

    @Override
    public WhatIf whatIf(Actor actor, DeclarativeRule rule, Instant since) {
        permissions.requireNow(actor, Operation.VIEW_TOOL_SETTINGS);
        return evaluate(compiled(rule), recorded.since(since, MOST_CALLS), new Facts());
    }

    @Override
    public RuleTrial trial(Actor actor, DeclarativeRule rule, RecordedCall call) {
        permissions.requireNow(actor, Operation.VIEW_TOOL_SETTINGS);
        return judge(compiled(rule), call, new Facts());
    }

    private CompiledRule compiled(DeclarativeRule rule) {
        CompiledRule.Check check = CompiledRule.check(rule, language);
        if (check instanceof CompiledRule.Check.Invalid invalid) {
            throw new IllegalArgumentException("the condition does not compile: " + invalid.error().sentence());
        }
        return ((CompiledRule.Check.Valid) check).rule();
    }

    private WhatIf evaluate(CompiledRule rule, List<RecordedCall> calls, Facts facts) {
        int inScope = 0;
        int matched = 0;
        int failed = 0;
        Map<String, Integer> byAgent = new TreeMap<>();
        Map<String, Integer> byTool = new TreeMap<>();
        List<RecordedCall> listed = new ArrayList<>();
        for (RecordedCall call : calls) {
            RuleTrial trial = judge(rule, call, facts);
            if (trial instanceof RuleTrial.OutOfScope) {
                continue;
            }
            inScope++;
            matched += trial instanceof RuleTrial.Matches ? 1 : 0;
            failed += trial instanceof RuleTrial.Fails ? 1 : 0;
            if (trial instanceof RuleTrial.Matches || trial instanceof RuleTrial.Fails) {
                byAgent.merge(call.agent(), 1, Integer::sum);
                byTool.merge(call.tool(), 1, Integer::sum);
                if (listed.size() < LISTED) {
                    listed.add(call);
                }
            }
        }
        return new WhatIf(calls.size(), inScope, matched, failed, byAgent, byTool, listed);
    }

    /** What the rule does to one call, as the live rule would see it. */
    private RuleTrial judge(CompiledRule rule, RecordedCall call, Facts facts) {
        if (!rule.rule().scope().covers(call.agent(), facts.gateway(call.agent()))) {
            return OUT_OF_SCOPE;
        }
        if (!rule.concerns(call.tool())) {
            return NO_MATCH;
        }
        try {
            return rule.matches(language.bind(facts.of(call))) ? new RuleTrial.Matches(rule.rule().action())
                    : NO_MATCH;
        } catch (ConditionLanguage.ConditionFailedException failure) {
            return new RuleTrial.Fails(failure.getMessage() == null ? "the condition could not be evaluated"
                    : String.join(" ", failure.getMessage().strip().lines().toList()));
        } catch (RuntimeException failure) {
            return new RuleTrial.Fails("the condition could not be evaluated");
        }
    }

    /** What a what-if looks up once per agent and person, not per call. */
    private final class Facts {
        private final Map<String, Optional<ModelConfiguration>> models = new HashMap<>();
        private final Map<String, List<String>> roles = new HashMap<>();

        CallFacts of(RecordedCall call) {
            Optional<Tool> tool = registry.find(call.tool());
            return new CallFacts(call.tool(),
                    tool.filter(RemoteTool.class::isInstance).map(t -> ((RemoteTool) t).serverName()).orElse(""),
                    call.arguments(), call.target(), call.agent(), call.person(), roles(call.person()),
                    tool.map(t -> t.dataClass().code()).orElse(""),
                    model(call.agent()).map(m -> m.trustZone().code()).orElse(""),
                    tool.map(t -> t.effect().name().toLowerCase(Locale.ROOT)).orElse(""), call.at(), call.before());
        }

        boolean gateway(String agent) {
            return model(agent).map(ModelConfiguration::hostDriven).orElse(false);
        }

        private Optional<ModelConfiguration> model(String agent) {
            return models.computeIfAbsent(agent, name -> configurations.findAgent(name)
                    .map(StoredAgentConfiguration::modelName).flatMap(configurations::findModel));
        }

        private List<String> roles(String person) {
            return roles.computeIfAbsent(person, name -> users.find(name).map(found -> found.roles().stream()
                    .map(role -> role.name().toLowerCase(Locale.ROOT)).sorted().toList()).orElse(List.of()));
        }
    }
}
