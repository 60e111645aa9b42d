package io.countersign.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.cel.CelConditionLanguage;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.invocation.ToolInvocationPolicy;
import io.countersign.engine.rules.DeclarativeRules;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.tools.BuiltinTools;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One call judged by 50 declarative deny rules, none of which refuses it, so every condition is evaluated: the
 * call's facts bound once (its arguments converted for CEL), then each rule's compiled program. Each invocation
 * is a new call, so nothing of the previous one is reused. The goal is under 50 µs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DeclarativeRulesBenchmark {
    private static final int RULES = 50;
    private static final String[] CONDITIONS = {
        "tool == 'shell.run' && args.command.matches('rm\\\\s+-rf')",
        "tool == 'fs_delete' && target.id.startsWith('releases/')",
        "tool == 'fs_write' && size(args.content) > 1000000",
        "tool == 'web_fetch' && !args.url.startsWith('https://docs.example.org/')",
        "effect == 'write' && trustZone == 'externalGlobal' && !('admin' in roles)",
    };

    private ToolInvocationPolicy policy;
    private ObjectNode arguments;
    private AgentConfiguration agent;
    private ToolExecutionContext execution;

    @Setup
    public void setUp() {
        List<DeclarativeRule> rules = new ArrayList<>();
        for (int i = 0; i < RULES; i++) {
            rules.add(new DeclarativeRule("rule-" + i, CONDITIONS[i % CONDITIONS.length] + " && agent != 'agent-" + i
                    + "'", new DeclarativeRule.Action.Deny("refused", "Refused.", null), DeclarativeRule.Scope.ALL,
                    true, ""));
        }
        List<DeclarativeRule> saved = List.copyOf(rules);
        ToolRegistry registry = ToolRegistry.of(BuiltinTools.create(() -> null, List::of).toArray(Tool[]::new));
        policy = InvocationRules.of(List.of(), List.of()).withLive(new DeclarativeRules(() -> saved,
                new CelConditionLanguage(), registry, Clock.systemUTC())).invocationPolicy();
        arguments = new ObjectMapper().createObjectNode().put("path", "chapters/one.md")
                .put("content", "A chapter of some length, written by the agent.");
        agent = AgentConfiguration.of("writer", ModelConfiguration.scripted("scripted"), List.of("files"));
        execution = ToolExecutionContext.of(Actor.of("olga", Role.OPERATOR), "run-1", Locale.ENGLISH);
    }

    @Benchmark
    public InvocationVerdict evaluate() {
        return policy.evaluate(new ToolInvocationContext("fs_write", arguments, agent, null, execution,
                ToolInvocationHistory.emptyComplete()));
    }
}
