package io.countersign.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.invocation.ToolInvocationPolicy;
import io.countersign.engine.invocation.ToolInvocationRule;
import io.countersign.engine.invocation.ToolTargetResolver;
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
 * One evaluation of the invocation policy with 20 allowing rules and one resolver that names the call's target.
 * Every call is asked at least twice, so the goal is under 2 µs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class InvocationPolicyBenchmark {
    private static final int RULES = 20;

    private ToolInvocationPolicy policy;
    private ToolInvocationContext call;

    /** Allows calls it does not object to, after looking at them as a real rule would. */
    private record AllowingRule(String identifier) implements ToolInvocationRule {
        @Override
        public ToolInvocationDecision decide(ToolInvocationContext context) {
            return context.toolName().equals(identifier) ? ToolInvocationDecision.deny("refused")
                    : ToolInvocationDecision.allow();
        }
    }

    @Setup
    public void setUp() {
        List<ToolInvocationRule> rules = new ArrayList<>();
        for (int i = 0; i < RULES; i++) {
            rules.add(new AllowingRule("rule-" + i));
        }
        ToolTargetResolver resolver = (tool, arguments, configuration) -> tool.startsWith("fs_")
                ? new ToolInvocationTarget("file", arguments.path("path").asText()) : null;
        policy = InvocationRules.of(rules, List.of(resolver)).invocationPolicy();
        ObjectNode arguments = new ObjectMapper().createObjectNode().put("path", "chapters/one.md");
        AgentConfiguration agent = AgentConfiguration.of("writer", ModelConfiguration.scripted("scripted"),
                List.of("files"));
        call = new ToolInvocationContext("fs_write", arguments, agent, null,
                ToolExecutionContext.of(Actor.of("olga", Role.OPERATOR), "run-1", Locale.ENGLISH),
                ToolInvocationHistory.emptyComplete());
    }

    @Benchmark
    public InvocationVerdict evaluate() {
        return policy.evaluate(call);
    }
}
