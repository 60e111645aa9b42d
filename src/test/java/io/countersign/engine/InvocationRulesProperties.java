package io.countersign.engine;

import static io.countersign.engine.InvocationCalls.agent;
import static io.countersign.engine.InvocationCalls.arguments;
import static io.countersign.engine.InvocationCalls.call;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.ToolInvocationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/** Random rule lists asked about random calls: the first rule that does not allow decides, the rest are spared. */
class InvocationRulesProperties {
    private static final List<String> TOOLS = List.of("fs_read", "fs_write", "fs_delete", "web_fetch");
    // Held strongly: java.util.logging forgets the level of a logger nobody references.
    private static final Logger POLICY_LOG = Logger.getLogger(InvocationRules.class.getName());

    @BeforeContainer
    static void quietenTheThousandsOfRuleFailures() {
        POLICY_LOG.setLevel(Level.OFF);
    }

    @AfterContainer
    static void restoreTheLog() {
        POLICY_LOG.setLevel(null);
    }

    enum Behaviour {
        ALLOW, DENY, THROW, ANSWER_NOTHING
    }

    /** How a rule answers: as its behaviour says for calls to {@code onlyFor} (or any tool), else it allows. */
    record RuleSpec(Behaviour behaviour, String onlyFor, boolean preApproval) {
        Behaviour behaviourFor(String toolName) {
            return onlyFor == null || onlyFor.equals(toolName) ? behaviour : Behaviour.ALLOW;
        }

        CountingRule build(String identifier) {
            Function<ToolInvocationContext, ToolInvocationDecision> answer = context ->
                    switch (behaviourFor(context.toolName())) {
                        case ALLOW -> ToolInvocationDecision.allow();
                        case DENY -> ToolInvocationDecision.deny("refused_by_" + identifier);
                        case THROW -> throw new IllegalStateException("secret detail of " + identifier);
                        case ANSWER_NOTHING -> null;
                    };
            return preApproval ? CountingRule.marked(identifier, answer) : CountingRule.answering(identifier, answer);
        }
    }

    @Provide
    Arbitrary<List<RuleSpec>> ruleLists() {
        Arbitrary<RuleSpec> spec = Combinators.combine(
                Arbitraries.of(Behaviour.class),
                Arbitraries.of(TOOLS).injectNull(0.6),
                Arbitraries.of(true, false)).as(RuleSpec::new);
        return spec.list().ofMaxSize(15);
    }

    @Provide
    Arbitrary<String> tools() {
        return Arbitraries.of(TOOLS);
    }

    @Property
    void theFirstRuleThatDoesNotAllowIsReported(@ForAll("ruleLists") List<RuleSpec> specs,
                                                @ForAll("tools") String tool) {
        List<CountingRule> rules = build(specs);

        InvocationVerdict verdict = InvocationRules.of(List.copyOf(rules), List.of()).invocationPolicy()
                .evaluate(call(tool, arguments("path", "notes.md"), agent()));

        int first = firstNotAllowing(specs, tool, false);
        if (first < 0) {
            assertThat(verdict.allowed()).isTrue();
        } else {
            assertThat(verdict.ruleIdentifier()).isEqualTo(identifier(first));
            assertThat(verdict.decision().reasonCode()).isEqualTo(expectedCode(specs.get(first), tool, first));
        }
    }

    @Property
    void rulesAfterTheFirstDenialAreNeverCalled(@ForAll("ruleLists") List<RuleSpec> specs,
                                                @ForAll("tools") String tool) {
        List<CountingRule> rules = build(specs);

        InvocationRules.of(List.copyOf(rules), List.of()).invocationPolicy().evaluate(call(tool));

        int first = firstNotAllowing(specs, tool, false);
        for (int i = 0; i < rules.size(); i++) {
            assertThat(rules.get(i).calls()).as("calls of rule %d", i).isEqualTo(first < 0 || i <= first ? 1 : 0);
        }
    }

    @Property
    void preApprovalPolicyReportsTheFirstPreApprovalRuleThatDoesNotAllow(@ForAll("ruleLists") List<RuleSpec> specs,
                                                                         @ForAll("tools") String tool) {
        List<CountingRule> rules = build(specs);

        InvocationVerdict verdict = InvocationRules.of(List.copyOf(rules), List.of()).preApprovalPolicy()
                .evaluate(call(tool));

        int first = firstNotAllowing(specs, tool, true);
        if (first < 0) {
            assertThat(verdict.allowed()).isTrue();
        } else {
            assertThat(verdict.ruleIdentifier()).isEqualTo(identifier(first));
            assertThat(verdict.decision().reasonCode()).isEqualTo(expectedCode(specs.get(first), tool, first));
        }
    }

    @Property
    void preApprovalPolicyNeverCallsOtherRules(@ForAll("ruleLists") List<RuleSpec> specs,
                                               @ForAll("tools") String tool) {
        List<CountingRule> rules = build(specs);

        InvocationRules.of(List.copyOf(rules), List.of()).preApprovalPolicy().evaluate(call(tool));

        for (int i = 0; i < rules.size(); i++) {
            if (!specs.get(i).preApproval()) {
                assertThat(rules.get(i).calls()).as("calls of rule %d", i).isZero();
            }
        }
    }

    private static List<CountingRule> build(List<RuleSpec> specs) {
        List<CountingRule> rules = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            rules.add(specs.get(i).build(identifier(i)));
        }
        return rules;
    }

    private static int firstNotAllowing(List<RuleSpec> specs, String tool, boolean preApprovalOnly) {
        for (int i = 0; i < specs.size(); i++) {
            RuleSpec spec = specs.get(i);
            if ((spec.preApproval() || !preApprovalOnly) && spec.behaviourFor(tool) != Behaviour.ALLOW) {
                return i;
            }
        }
        return -1;
    }

    private static String expectedCode(RuleSpec spec, String tool, int index) {
        return spec.behaviourFor(tool) == Behaviour.DENY ? "refused_by_" + identifier(index)
                : InvocationVerdict.RULE_FAILED;
    }

    private static String identifier(int index) {
        return "rule-" + index;
    }
}
