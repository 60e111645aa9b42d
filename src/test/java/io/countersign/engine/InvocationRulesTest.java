package io.countersign.engine;

import static io.countersign.engine.InvocationCalls.agent;
import static io.countersign.engine.InvocationCalls.arguments;
import static io.countersign.engine.InvocationCalls.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.invocation.ToolInvocationRule;
import io.countersign.engine.invocation.ToolTargetResolver;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class InvocationRulesTest {
    private static final String SECRET = "password=hunter2";
    private static final ToolInvocationTarget NOTES = new ToolInvocationTarget("file", "notes.md");
    private static final ToolTargetResolver CLAIMS_NOTES = (tool, arguments, configuration) -> NOTES;
    private static final ToolTargetResolver DECLINES = (tool, arguments, configuration) -> null;

    @Nested
    class Construction {
        @Test
        void noneHasNoRules() {
            assertThat(InvocationRules.none().identifiers()).isEmpty();
        }

        @Test
        void rulesKeepTheDeclaredOrder() {
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.allowing("zeta"),
                    CountingRule.allowing("alpha"), CountingRule.allowing("mid")), List.of());

            assertThat(rules.identifiers()).containsExactly("zeta", "alpha", "mid");
        }

        @Test
        void duplicateIdentifiersAreRefused() {
            List<ToolInvocationRule> twins = List.of(CountingRule.allowing("site.only"),
                    CountingRule.denying("site.only", "outside_site"));

            assertThatThrownBy(() -> InvocationRules.of(twins, List.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("two invocation rules use the identifier \"site.only\"");
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "Site", "1site", "site only", "sité", "-site",
                "a2345678901234567890123456789012345678901234567890123456789012345"})
        void identifierThatIsNotACodeIsRefused(String identifier) {
            List<ToolInvocationRule> rules = List.of(CountingRule.allowing(identifier));

            assertThatThrownBy(() -> InvocationRules.of(rules, List.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must match [a-z][a-z0-9_.-]* and be 1 to 64 ASCII characters");
        }

        @Test
        void identifierOfSixtyFourCharactersIsAccepted() {
            String longest = "a".repeat(Names.MAX_CODE_LENGTH);

            assertThat(InvocationRules.of(List.of(CountingRule.allowing(longest)), List.of()).identifiers())
                    .containsExactly(longest);
        }

        @Test
        void missingIdentifierIsRefused() {
            List<ToolInvocationRule> rules = List.of(CountingRule.allowing(null));

            assertThatThrownBy(() -> InvocationRules.of(rules, List.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("identifier of invocation rule");
        }

        @Test
        void aRuleNamedPolicyIsAccepted() {
            List<ToolInvocationRule> rules = List.of(CountingRule.allowing("policy"));

            assertThat(InvocationRules.of(rules, List.of()).identifiers()).containsExactly("policy");
        }

        @Test
        void aPolicyFailureNamesNoRuleSoARuleNamedPolicyCannotBeMistakenForIt() {
            ToolTargetResolver throwing = (tool, arguments, configuration) -> {
                throw new IllegalStateException(SECRET);
            };
            InvocationVerdict failed = InvocationRules.of(List.of(CountingRule.allowing("policy")), List.of(throwing))
                    .invocationPolicy().evaluate(call("fs_write"));
            InvocationVerdict byTheRule = InvocationRules.of(List.of(CountingRule.denying("policy", "outside_site")),
                    List.of()).invocationPolicy().evaluate(call("fs_write"));

            assertThat(failed.ruleIdentifier()).isNull();
            assertThat(failed.refusalText())
                    .isEqualTo("Error: invocation denied (reason: policy_failed). Nothing was executed.");
            assertThat(byTheRule.ruleIdentifier()).isEqualTo("policy");
            assertThat(byTheRule.refusalText()).startsWith("Error: invocation denied (rule: policy, reason: outside_site)");
        }

        @Test
        void onlyAPolicyFailureMayNameNoRule() {
            assertThatThrownBy(() -> new InvocationVerdict(ToolInvocationDecision.deny("outside_site"), null, null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("rule identifier");
        }

        @Test
        void missingRuleIsRefused() {
            List<ToolInvocationRule> rules = Arrays.asList(CountingRule.allowing("first"), null);

            assertThatThrownBy(() -> InvocationRules.of(rules, List.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("invocation rule at position 1 is missing (null)");
        }

        @Test
        void resolverRegisteredTwiceIsRefused() {
            List<ToolTargetResolver> resolvers = List.of(CLAIMS_NOTES, CLAIMS_NOTES);

            assertThatThrownBy(() -> InvocationRules.of(List.of(), resolvers))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is registered twice");
        }

        @ParameterizedTest
        @ValueSource(strings = {"Outside", "outside site", "", "7days", "außen"})
        void reasonCodeThatIsNotACodeIsRefused(String code) {
            assertThatThrownBy(() -> ToolInvocationDecision.deny(code, "Say what to do."))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("reason code");
        }

        @Test
        void blankTargetIdentifierIsRefused() {
            assertThatThrownBy(() -> new ToolInvocationTarget("file", "  "))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("non-blank identifier");
        }

        @Test
        void oversizeTargetIdentifierIsRefused() {
            String oversize = "a".repeat(ToolInvocationTarget.MAX_IDENTIFIER_LENGTH + 1);

            assertThatThrownBy(() -> new ToolInvocationTarget("file", oversize))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("at most 512 characters");
        }

        @Test
        void targetIdentifierWithControlCharactersIsRefused() {
            assertThatThrownBy(() -> new ToolInvocationTarget("file", "notes\n.md"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("control characters");
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "File", "a file"})
        void targetKindThatIsNotACodeIsRefused(String kind) {
            assertThatThrownBy(() -> new ToolInvocationTarget(kind, "notes.md"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("target kind");
        }
    }

    @Nested
    class Discovery {
        @Test
        void serviceLoaderFindsTheBuiltInRulesInTheirDeclaredOrder() {
            assertThat(InvocationRules.discover(List.of(), List.of()).identifiers())
                    .containsExactly("workspace.boundary", "repeat.after.denial");
        }

        @Test
        void rulesRegisteredInCodeFollowTheDiscoveredOnes() {
            InvocationRules rules = InvocationRules.discover(List.of(CountingRule.allowing("site.only")), List.of());

            assertThat(rules.identifiers()).containsExactly("workspace.boundary", "repeat.after.denial", "site.only");
        }

        @Test
        void ruleRegisteredInCodeMayNotReuseADiscoveredIdentifier() {
            List<ToolInvocationRule> extra = List.of(CountingRule.allowing("workspace.boundary"));

            assertThatThrownBy(() -> InvocationRules.discover(extra, List.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("\"workspace.boundary\"");
        }

        @Test
        void resolverRegisteredInCodeMayNotRepeatADiscoveredOne() {
            List<ToolTargetResolver> extra = List.of(new io.countersign.engine.rules.FileTargetResolver());

            assertThatThrownBy(() -> InvocationRules.discover(List.of(), extra))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("already registered through its service file");
        }
    }

    @Nested
    class InvocationPolicy {
        @Test
        void noRulesAllowEveryCallWithoutATarget() {
            InvocationVerdict verdict = InvocationRules.none().invocationPolicy().evaluate(call("fs_delete"));

            assertThat(verdict).isEqualTo(InvocationVerdict.allowed(null));
        }

        @Test
        void allowingRulesAllowTheCall() {
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.allowing("first"),
                    CountingRule.allowing("second")), List.of());

            assertThat(rules.invocationPolicy().evaluate(call("fs_read")).allowed()).isTrue();
        }

        @Test
        void firstDenialWinsAndCarriesTheRuleIdentifier() {
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.allowing("first"),
                    CountingRule.denying("site.only", "outside_site"),
                    CountingRule.denying("later", "too_late")), List.of());

            InvocationVerdict verdict = rules.invocationPolicy().evaluate(call("fs_write"));

            assertThat(verdict.ruleIdentifier()).isEqualTo("site.only");
            assertThat(verdict.decision().reasonCode()).isEqualTo("outside_site");
        }

        @Test
        void rulesAfterTheFirstDenialAreNotAsked() {
            CountingRule later = CountingRule.allowing("later");
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.denying("site.only", "outside_site"),
                    later), List.of());

            rules.invocationPolicy().evaluate(call("fs_write"));

            assertThat(later.calls()).isZero();
        }

        @Test
        void ruleSeesTheCallConfigurationTargetExecutionContextAndHistory() {
            CountingRule rule = CountingRule.allowing("site.only");
            ToolInvocationHistory history = ToolInvocationHistory.emptyComplete()
                    .with(new ToolInvocationObservation("fs_read", ToolInvocationObservation.Outcome.OK, NOTES));
            ToolInvocationContext context = call("fs_write", arguments("path", "notes.md"), agent(), history,
                    Locale.GERMAN);

            InvocationRules.of(List.of(rule), List.of(CLAIMS_NOTES)).invocationPolicy().evaluate(context);

            assertThat(rule.lastContext()).isEqualTo(new ToolInvocationContext("fs_write",
                    arguments("path", "notes.md"), agent(), NOTES, context.executionContext(), history));
        }

        @Test
        void ruleSeesTheResolvedTargetNotTheOneTheCallerPassed() {
            CountingRule rule = CountingRule.allowing("site.only");
            ToolInvocationContext call = call("fs_read");
            ToolInvocationContext withStaleTarget = new ToolInvocationContext(call.toolName(), call.arguments(),
                    call.configuration(), NOTES, call.executionContext(), call.history());

            InvocationRules.of(List.of(rule), List.of(DECLINES)).invocationPolicy().evaluate(withStaleTarget);

            assertThat(rule.lastContext().target()).isNull();
        }

        @Test
        void verdictReportsTheResolvedTarget() {
            InvocationRules rules = InvocationRules.of(List.of(), List.of(DECLINES, CLAIMS_NOTES));

            assertThat(rules.invocationPolicy().evaluate(call("fs_read")).target()).isEqualTo(NOTES);
        }

        @Test
        void denialReportsTheResolvedTarget() {
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.denying("site.only", "outside_site")),
                    List.of(CLAIMS_NOTES));

            assertThat(rules.invocationPolicy().evaluate(call("fs_read")).target()).isEqualTo(NOTES);
        }

        @Test
        void ruleRequiringATargetDeniesACallWithoutOne() {
            CountingRule needsTarget = CountingRule.answering("needs.target", context -> context.target() == null
                    ? ToolInvocationDecision.deny("no_target") : ToolInvocationDecision.allow());
            InvocationRules rules = InvocationRules.of(List.of(needsTarget), List.of(DECLINES));

            assertThat(rules.invocationPolicy().evaluate(call("fs_read")).decision().reasonCode())
                    .isEqualTo("no_target");
        }

        @Test
        void invocationPolicyAsksPreApprovalRulesToo() {
            CountingRule.Marked marked = CountingRule.marked("site.only", context -> ToolInvocationDecision.allow());

            InvocationRules.of(List.of(marked), List.of()).invocationPolicy().evaluate(call("fs_write"));

            assertThat(marked.calls()).isEqualTo(1);
        }
    }

    @Nested
    class Failures {
        @Test
        void ruleThatThrowsIsRefusedRuleFailed() {
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.throwing("fragile", SECRET)), List.of());

            InvocationVerdict verdict = rules.invocationPolicy().evaluate(call("fs_write"));

            assertThat(verdict.ruleIdentifier()).isEqualTo("fragile");
            assertThat(verdict.decision().reasonCode()).isEqualTo(InvocationVerdict.RULE_FAILED);
        }

        @Test
        void ruleFailingWithAnErrorIsRefusedRuleFailed() {
            CountingRule broken = CountingRule.answering("broken", context -> {
                throw new NoClassDefFoundError("io/example/Missing");
            });
            InvocationRules rules = InvocationRules.of(List.of(broken), List.of());

            assertThat(rules.invocationPolicy().evaluate(call("fs_write")).decision().reasonCode())
                    .isEqualTo(InvocationVerdict.RULE_FAILED);
        }

        @Test
        void ruleAnsweringNothingIsRefusedRuleFailed() {
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.answering("silent", context -> null)),
                    List.of());

            assertThat(rules.invocationPolicy().evaluate(call("fs_write")).decision().reasonCode())
                    .isEqualTo(InvocationVerdict.RULE_FAILED);
        }

        @Test
        void ruleExceptionTextAppearsNowhere() {
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.throwing("fragile", SECRET)), List.of());
            List<InvocationVerdict> verdicts = new ArrayList<>();

            String printed = Captured.during(() -> verdicts.add(rules.invocationPolicy().evaluate(call("fs_write"))));

            assertThat(printed).doesNotContain(SECRET);
            assertThat(verdicts.get(0).toString()).doesNotContain(SECRET);
            assertThat(verdicts.get(0).refusalText()).doesNotContain(SECRET);
            assertThat(verdicts.get(0).decision().explanation()).isNull();
        }

        @Test
        void ruleFailureLogNamesOnlyTheRuleAndTheExceptionClass() {
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.throwing("fragile", SECRET)), List.of());

            String printed = Captured.during(() -> rules.invocationPolicy().evaluate(call("fs_write")));

            assertThat(printed).contains("fragile", IllegalStateException.class.getName());
        }

        @Test
        void ruleNeedingACompleteHistoryIsNotAskedWhenTheHistoryIsIncomplete() {
            CountingRule historian = new CountingRule("historian", true, context -> ToolInvocationDecision.allow());
            InvocationRules rules = InvocationRules.of(List.of(historian), List.of());

            InvocationVerdict verdict = rules.invocationPolicy().evaluate(call("fs_write", arguments(), agent(),
                    ToolInvocationHistory.incomplete(List.of()), Locale.ENGLISH));

            assertThat(verdict.ruleIdentifier()).isEqualTo("historian");
            assertThat(verdict.decision().reasonCode()).isEqualTo(InvocationVerdict.HISTORY_INCOMPLETE);
            assertThat(historian.calls()).isZero();
        }

        @Test
        void ruleNeedingACompleteHistoryIsAskedWhenTheHistoryIsComplete() {
            CountingRule historian = new CountingRule("historian", true, context -> ToolInvocationDecision.allow());

            InvocationRules.of(List.of(historian), List.of()).invocationPolicy().evaluate(call("fs_write"));

            assertThat(historian.calls()).isEqualTo(1);
        }

        @Test
        void ruleNotNeedingTheHistoryIsAskedWhenTheHistoryIsIncomplete() {
            CountingRule rule = CountingRule.allowing("site.only");

            InvocationRules.of(List.of(rule), List.of()).invocationPolicy().evaluate(call("fs_write", arguments(),
                    agent(), ToolInvocationHistory.incomplete(List.of()), Locale.ENGLISH));

            assertThat(rule.calls()).isEqualTo(1);
        }

        @Test
        void throwingResolverFailsThePolicyWithoutAskingARule() {
            CountingRule rule = CountingRule.allowing("site.only");
            ToolTargetResolver throwing = (tool, arguments, configuration) -> {
                throw new IllegalStateException(SECRET);
            };

            InvocationVerdict verdict = InvocationRules.of(List.of(rule), List.of(throwing)).invocationPolicy()
                    .evaluate(call("fs_write"));

            assertThat(verdict.ruleIdentifier()).isNull();
            assertThat(verdict.decision().reasonCode()).isEqualTo(InvocationVerdict.POLICY_FAILED);
            assertThat(rule.calls()).isZero();
        }

        @Test
        void resolverExceptionTextAppearsNowhere() {
            ToolTargetResolver throwing = (tool, arguments, configuration) -> {
                throw new IllegalStateException(SECRET);
            };
            InvocationRules rules = InvocationRules.of(List.of(), List.of(throwing));
            List<InvocationVerdict> verdicts = new ArrayList<>();

            String printed = Captured.during(() -> verdicts.add(rules.invocationPolicy().evaluate(call("fs_write"))));

            assertThat(printed).doesNotContain(SECRET);
            assertThat(verdicts.get(0).toString()).doesNotContain(SECRET);
        }

        @Test
        void resolverBuildingAnInvalidTargetFailsThePolicy() {
            ToolTargetResolver invalid = (tool, arguments, configuration) -> new ToolInvocationTarget("file", " ");

            InvocationVerdict verdict = InvocationRules.of(List.of(), List.of(invalid)).invocationPolicy()
                    .evaluate(call("fs_write"));

            assertThat(verdict.decision().reasonCode()).isEqualTo(InvocationVerdict.POLICY_FAILED);
        }

        @Test
        void twoResolversClaimingOneCallFailThePolicy() {
            ToolTargetResolver alsoClaims = (tool, arguments, configuration) -> new ToolInvocationTarget("host", "a");

            InvocationVerdict verdict = InvocationRules.of(List.of(), List.of(CLAIMS_NOTES, alsoClaims))
                    .invocationPolicy().evaluate(call("fs_write"));

            assertThat(verdict.ruleIdentifier()).isNull();
            assertThat(verdict.decision().reasonCode()).isEqualTo(InvocationVerdict.POLICY_FAILED);
        }

        @ParameterizedTest
        @MethodSource("io.countersign.engine.InvocationRulesTest#failingRules")
        void failureRefusalIsNotDeliberate(InvocationRules failing, ToolInvocationHistory history) {
            InvocationVerdict verdict = failing.invocationPolicy().evaluate(call("fs_write", arguments(), agent(),
                    history, Locale.ENGLISH));

            assertThat(verdict.allowed()).isFalse();
            assertThat(verdict.deliberateRefusal()).isFalse();
        }

        @Test
        void ruleDenialIsDeliberate() {
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.denying("site.only", "outside_site")),
                    List.of());

            assertThat(rules.invocationPolicy().evaluate(call("fs_write")).deliberateRefusal()).isTrue();
        }
    }

    static Stream<Arguments> failingRules() {
        ToolInvocationHistory complete = ToolInvocationHistory.emptyComplete();
        return Stream.of(
                Arguments.of(InvocationRules.of(List.of(CountingRule.throwing("fragile", SECRET)), List.of()),
                        complete),
                Arguments.of(InvocationRules.of(List.of(new CountingRule("historian", true,
                        context -> ToolInvocationDecision.allow())), List.of()),
                        ToolInvocationHistory.incomplete(List.of())),
                Arguments.of(InvocationRules.of(List.of(), List.of(CLAIMS_NOTES,
                        (tool, arguments, configuration) -> NOTES)), complete));
    }

    @Nested
    class Explanations {
        private final InvocationRules explaining = InvocationRules.of(List.of(CountingRule.answering("site.only",
                context -> ToolInvocationDecision.deny("outside_site", "Say what to do."))), List.of());

        @Test
        void refusalTextPassesTheExplanationOnAfterTheCodes() {
            assertThat(explaining.invocationPolicy().evaluate(call("fs_write")).refusalText())
                    .isEqualTo("Error: invocation denied (rule: site.only, reason: outside_site). Nothing was executed."
                            + " Say what to do.");
        }

        @Test
        void verdictTextKeepsTheExplanationOut() {
            assertThat(explaining.invocationPolicy().evaluate(call("fs_write")).toString())
                    .doesNotContain("Say what to do.");
        }

        @Test
        void argumentsNeverFormTheRefusal() {
            InvocationVerdict verdict = explaining.invocationPolicy().evaluate(call("fs_write",
                    arguments("content", SECRET), agent()));

            assertThat(verdict.refusalText()).doesNotContain(SECRET);
            assertThat(verdict.toString()).doesNotContain(SECRET);
        }
    }

    @Nested
    class PreApprovalPolicy {
        @Test
        void noRulesAllowEveryCall() {
            assertThat(InvocationRules.none().preApprovalPolicy().evaluate(call("fs_delete")).allowed()).isTrue();
        }

        @Test
        void asksOnlyPreApprovalRules() {
            CountingRule unmarked = CountingRule.denying("runtime.only", "not_now");
            CountingRule.Marked marked = CountingRule.marked("site.only", context -> ToolInvocationDecision.allow());
            InvocationRules rules = InvocationRules.of(List.of(unmarked, marked), List.of());

            InvocationVerdict verdict = rules.preApprovalPolicy().evaluate(call("fs_write"));

            assertThat(verdict.allowed()).isTrue();
            assertThat(unmarked.calls()).isZero();
            assertThat(marked.calls()).isEqualTo(1);
        }

        @Test
        void reportsTheDenyingPreApprovalRule() {
            InvocationRules rules = InvocationRules.of(List.of(CountingRule.denying("runtime.only", "not_now"),
                    CountingRule.marked("site.only", context -> ToolInvocationDecision.deny("outside_site"))),
                    List.of());

            InvocationVerdict verdict = rules.preApprovalPolicy().evaluate(call("fs_write"));

            assertThat(verdict.ruleIdentifier()).isEqualTo("site.only");
            assertThat(verdict.deliberateRefusal()).isTrue();
        }

        @Test
        void throwingPreApprovalRuleIsRefusedRuleFailed() {
            CountingRule.Marked throwing = CountingRule.marked("fragile", context -> {
                throw new IllegalStateException(SECRET);
            });

            InvocationVerdict verdict = InvocationRules.of(List.of(throwing), List.of()).preApprovalPolicy()
                    .evaluate(call("fs_write"));

            assertThat(verdict.decision().reasonCode()).isEqualTo(InvocationVerdict.RULE_FAILED);
            assertThat(verdict.deliberateRefusal()).isFalse();
        }

        @Test
        void throwingResolverFailsThePolicy() {
            ToolTargetResolver throwing = (tool, arguments, configuration) -> {
                throw new IllegalStateException(SECRET);
            };

            InvocationVerdict verdict = InvocationRules.of(List.of(), List.of(throwing)).preApprovalPolicy()
                    .evaluate(call("fs_write"));

            assertThat(verdict.decision().reasonCode()).isEqualTo(InvocationVerdict.POLICY_FAILED);
        }

        @Test
        void reportsTheResolvedTargetForTheCard() {
            InvocationRules rules = InvocationRules.of(List.of(), List.of(CLAIMS_NOTES));

            assertThat(rules.preApprovalPolicy().evaluate(call("fs_write")).target()).isEqualTo(NOTES);
        }
    }

    /** Everything printed to standard output or error, or logged through java.util.logging, while a task runs. */
    private static final class Captured extends Handler {
        private final StringBuilder logged = new StringBuilder();
        private final SimpleFormatter formatter = new SimpleFormatter();

        static String during(Runnable task) {
            Captured handler = new Captured();
            Logger root = Logger.getLogger("");
            Level rootLevel = root.getLevel();
            PrintStream out = System.out;
            PrintStream err = System.err;
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
            root.addHandler(handler);
            root.setLevel(Level.ALL);
            System.setOut(capture);
            System.setErr(capture);
            try {
                task.run();
            } finally {
                System.setOut(out);
                System.setErr(err);
                root.setLevel(rootLevel);
                root.removeHandler(handler);
            }
            return printed.toString(StandardCharsets.UTF_8) + handler.logged;
        }

        @Override
        public void publish(LogRecord record) {
            logged.append(formatter.format(record));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
