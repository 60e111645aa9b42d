package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.intent.DispatchContext;
import io.countersign.engine.intent.IntentRouting;
import io.countersign.engine.intent.RoleModelResolver;
import io.countersign.engine.intent.RoutedCall;
import io.countersign.engine.intent.ToolCallDispatchHook;
import io.countersign.engine.intent.ToolCallPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class IntentRoutingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ModelConfiguration DEFAULT = ModelConfiguration.scripted("default-model");
    private static final ModelConfiguration CHEAP = ModelConfiguration.scripted("cheap-model");
    private static final ModelConfiguration OTHER = ModelConfiguration.scripted("other-model");
    private static final ModelConfiguration RESOLVED = ModelConfiguration.scripted("resolved-model");
    private static final Predicate<DispatchContext> SALES = context -> context.lastUserMessage().contains("sales");
    private static final Predicate<DispatchContext> ALWAYS = context -> true;
    private static final Set<String> OFFERED = Set.of("run_block", "fetch_data", "search");
    private static final String SECRET_ARGUMENT = "SELECT * FROM payroll";

    private final List<LogRecord> warnings = new ArrayList<>();
    private Logger logger;

    @BeforeEach
    void captureWarnings() {
        logger = Logger.getAnonymousLogger();
        logger.setUseParentHandlers(false);
        logger.addHandler(new Handler() {
            @Override
            public void publish(LogRecord entry) {
                if (entry.getLevel() == Level.WARNING) {
                    warnings.add(entry);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    // PRE seam

    @Test
    void policyModelWinsOverResolverAndDefault() {
        IntentRouting routing = routing(List.of(ToolCallPolicy.modelFor("cheap", SALES, CHEAP)),
                context -> RESOLVED, null);

        assertThat(routing.chooseModel(context("show sales"), DEFAULT)).isEqualTo(CHEAP);
    }

    @Test
    void resolverChoosesWhenNoPolicyMatches() {
        IntentRouting routing = routing(List.of(ToolCallPolicy.modelFor("cheap", SALES, CHEAP)),
                context -> RESOLVED, null);

        assertThat(routing.chooseModel(context("show the weather"), DEFAULT)).isEqualTo(RESOLVED);
    }

    @Test
    void defaultModelWhenNoPolicyMatchesAndResolverAnswersNull() {
        IntentRouting routing = routing(List.of(ToolCallPolicy.modelFor("cheap", SALES, CHEAP)),
                context -> null, null);

        assertThat(routing.chooseModel(context("show the weather"), DEFAULT)).isEqualTo(DEFAULT);
    }

    @Test
    void firstMatchingModelPolicyWinsInDeclaredOrder() {
        IntentRouting routing = routing(List.of(
                ToolCallPolicy.modelFor("other", context -> false, OTHER),
                ToolCallPolicy.modelFor("cheap", SALES, CHEAP),
                ToolCallPolicy.modelFor("also-sales", SALES, OTHER)), null, null);

        assertThat(routing.chooseModel(context("show sales"), DEFAULT)).isEqualTo(CHEAP);
    }

    @Test
    void redirectOnlyPolicyNeverChoosesTheModel() {
        AtomicInteger matchCalls = new AtomicInteger();
        ToolCallPolicy redirectOnly = ToolCallPolicy.redirect("redirect", counting(matchCalls, ALWAYS), Set.of(),
                "fetch_data");
        IntentRouting routing = routing(List.of(redirectOnly), context -> null, null);

        assertThat(routing.chooseModel(context("show sales"), DEFAULT)).isEqualTo(DEFAULT);
        assertThat(matchCalls).hasValue(0);
    }

    @Test
    void guardIsNotEvaluatedAtThePreSeam() {
        AtomicInteger guardCalls = new AtomicInteger();
        ToolCallPolicy policy = new ToolCallPolicy("sales", SALES, Set.of("run_block"), "fetch_data", CHEAP, null,
                context -> {
                    guardCalls.incrementAndGet();
                    throw new IllegalStateException("the guard ran at the PRE seam");
                });

        assertThat(routing(List.of(policy), null, null).chooseModel(context("show sales"), DEFAULT))
                .isEqualTo(CHEAP);
        assertThat(guardCalls).hasValue(0);
        assertThat(warnings).isEmpty();
    }

    @Test
    void throwingMatchAtThePreSeamSkipsThatPolicyWithAWarning() {
        IntentRouting routing = routing(List.of(
                ToolCallPolicy.modelFor("broken", context -> {
                    throw new IllegalStateException(SECRET_ARGUMENT);
                }, OTHER),
                ToolCallPolicy.modelFor("cheap", SALES, CHEAP)), null, null);

        assertThat(routing.chooseModel(context("show sales"), DEFAULT)).isEqualTo(CHEAP);
        assertThat(warnings).singleElement().satisfies(warning -> {
            assertThat(warning.getMessage()).contains("\"broken\"").doesNotContain(SECRET_ARGUMENT);
            assertThat(warning.getThrown()).isNull();
        });
    }

    @Test
    void throwingResolverFallsBackToTheDefaultWithAWarning() {
        IntentRouting routing = routing(List.of(), context -> {
            throw new IllegalStateException(SECRET_ARGUMENT);
        }, null);

        assertThat(routing.chooseModel(context("show sales"), DEFAULT)).isEqualTo(DEFAULT);
        assertThat(warnings).singleElement().satisfies(warning ->
                assertThat(warning.getMessage()).contains("resolver").doesNotContain(SECRET_ARGUMENT));
    }

    @Test
    void emptyConfigurationReturnsTheDefaultWithoutReadingTheContext() {
        assertThat(routing(List.of(), null, null).chooseModel(null, DEFAULT)).isSameAs(DEFAULT);
    }

    // POST seam

    @Test
    void matchingPolicyRewritesTheCallAndKeepsItsId() {
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", SALES, Set.of("run_block"),
                "fetch_data")), null, null);
        ToolCall emitted = call("call-1", "run_block", "{\"code\": \"x\"}");

        RoutedCall routed = routeOne(routing, emitted, "show sales");

        assertThat(routed.call()).isEqualTo(new ToolCall("call-1", "fetch_data", arguments("{\"code\": \"x\"}")));
        assertThat(routed.emitted()).isEqualTo(emitted);
        assertThat(routed.policy()).isEqualTo("sales");
        assertThat(routed.droppedByPaletteGate()).isFalse();
    }

    @Test
    void argsTransformRewritesTheArguments() {
        ToolCallPolicy policy = new ToolCallPolicy("sales", SALES, Set.of("run_block"), "fetch_data", null,
                (args, context) -> arguments("{\"table\": \"brand_sales\"}"), null);

        RoutedCall routed = routeOne(routing(List.of(policy), null, null),
                call("call-1", "run_block", "{\"code\": \"x\"}"), "show sales");

        assertThat(routed.call().arguments()).isEqualTo(arguments("{\"table\": \"brand_sales\"}"));
    }

    @Test
    void argsTransformReceivesTheEmittedArgumentsAndTheContext() {
        ToolCallPolicy policy = new ToolCallPolicy("sales", SALES, Set.of(), "fetch_data", null,
                (args, context) -> args.put("asked", context.lastUserMessage()), null);

        RoutedCall routed = routeOne(routing(List.of(policy), null, null),
                call("call-1", "run_block", "{\"code\": \"x\"}"), "show sales");

        assertThat(routed.call().arguments()).isEqualTo(arguments("{\"code\": \"x\", \"asked\": \"show sales\"}"));
        assertThat(routed.emitted().arguments()).isEqualTo(arguments("{\"code\": \"x\"}"));
    }

    @Test
    void firstMatchingRedirectPolicyWinsInDeclaredOrder() {
        IntentRouting routing = routing(List.of(
                ToolCallPolicy.redirect("never", context -> false, Set.of(), "search"),
                ToolCallPolicy.redirect("sales", SALES, Set.of(), "fetch_data"),
                ToolCallPolicy.redirect("also-sales", SALES, Set.of(), "search")), null, null);

        RoutedCall routed = routeOne(routing, call("call-1", "run_block", "{}"), "show sales");

        assertThat(routed.call().name()).isEqualTo("fetch_data");
        assertThat(routed.policy()).isEqualTo("sales");
    }

    @Test
    void guardFalseKeepsTheModelSwapButBlocksTheRedirect() {
        ToolCallPolicy policy = new ToolCallPolicy("sales", SALES, Set.of("run_block"), "fetch_data", CHEAP, null,
                context -> false);
        IntentRouting routing = routing(List.of(policy), null, null);
        ToolCall emitted = call("call-1", "run_block", "{}");

        assertThat(routing.chooseModel(context("show sales"), DEFAULT)).isEqualTo(CHEAP);
        assertThat(routeOne(routing, emitted, "show sales")).isEqualTo(RoutedCall.unchanged(emitted));
    }

    @Test
    void guardTrueLetsTheRedirectThrough() {
        ToolCallPolicy policy = new ToolCallPolicy("sales", SALES, Set.of("run_block"), "fetch_data", null, null,
                context -> context.resolvedToolNames().contains("fetch_data"));

        RoutedCall routed = routeOne(routing(List.of(policy), null, null), call("call-1", "run_block", "{}"),
                "show sales");

        assertThat(routed.call().name()).isEqualTo("fetch_data");
    }

    @Test
    void modelOnlyPolicyNeverRedirects() {
        AtomicInteger matchCalls = new AtomicInteger();
        IntentRouting routing = routing(List.of(ToolCallPolicy.modelFor("cheap", counting(matchCalls, ALWAYS),
                CHEAP)), null, (proposed, emitted, context) -> proposed);
        ToolCall emitted = call("call-1", "run_block", "{}");

        assertThat(routeOne(routing, emitted, "show sales")).isEqualTo(RoutedCall.unchanged(emitted));
        assertThat(matchCalls).hasValue(0);
    }

    @Test
    void whenToolAsOneNameRedirectsOnlyThatTool() {
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", ALWAYS, Set.of("run_block"),
                "fetch_data")), null, null);

        List<RoutedCall> routed = routing.route(List.of(call("a", "run_block", "{}"), call("b", "search", "{}")),
                context("show sales"), OFFERED);

        assertThat(routed).extracting(r -> r.call().name()).containsExactly("fetch_data", "search");
    }

    @Test
    void whenToolAsASetRedirectsEachNamedTool() {
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", ALWAYS,
                Set.of("run_block", "search"), "fetch_data")), null, null);

        List<RoutedCall> routed = routing.route(List.of(call("a", "run_block", "{}"), call("b", "search", "{}"),
                call("c", "list_files", "{}")), context("show sales"), Set.of("fetch_data", "list_files"));

        assertThat(routed).extracting(r -> r.call().name()).containsExactly("fetch_data", "fetch_data", "list_files");
    }

    @Test
    void emptyWhenToolRedirectsAnyTool() {
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", ALWAYS, Set.of(), "fetch_data")),
                null, null);

        List<RoutedCall> routed = routing.route(List.of(call("a", "run_block", "{}"), call("b", "search", "{}")),
                context("show sales"), OFFERED);

        assertThat(routed).extracting(r -> r.call().name()).containsExactly("fetch_data", "fetch_data");
    }

    @Test
    void aDifferentPolicyCanWinEachSeamOnTheSameTurn() {
        IntentRouting routing = routing(List.of(
                ToolCallPolicy.modelFor("cheap-for-sales", SALES, CHEAP),
                ToolCallPolicy.redirect("pin-fetch", SALES, Set.of("run_block"), "fetch_data"),
                new ToolCallPolicy("both", SALES, Set.of(), "search", OTHER, null, null)), null, null);

        assertThat(routing.chooseModel(context("show sales"), DEFAULT)).isEqualTo(CHEAP);
        assertThat(routeOne(routing, call("call-1", "run_block", "{}"), "show sales").policy())
                .isEqualTo("pin-fetch");
    }

    @Test
    void hookSeesThePolicyRewriteAndTheEmittedOriginal() {
        List<ToolCall> seen = new ArrayList<>();
        ToolCallDispatchHook hook = (proposed, emitted, context) -> {
            seen.add(proposed);
            seen.add(emitted);
            return proposed;
        };
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", SALES, Set.of(), "fetch_data")),
                null, hook);
        ToolCall emitted = call("call-1", "run_block", "{\"code\": \"x\"}");

        RoutedCall routed = routeOne(routing, emitted, "show sales");

        assertThat(seen).containsExactly(routed.call(), emitted);
        assertThat(routed.call().name()).isEqualTo("fetch_data");
    }

    @Test
    void hookOverridesThePolicyRewrite() {
        ToolCallDispatchHook hook = (proposed, emitted, context) -> proposed.withTarget("search", arguments("{}"));
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", SALES, Set.of(), "fetch_data")),
                null, hook);

        RoutedCall routed = routeOne(routing, call("call-1", "run_block", "{}"), "show sales");

        assertThat(routed.call()).isEqualTo(new ToolCall("call-1", "search", arguments("{}")));
        assertThat(routed.policy()).isEqualTo("sales");
    }

    @Test
    void hookRoutesCallsWithoutAnyPolicy() {
        ToolCallDispatchHook hook = (proposed, emitted, context) -> proposed.withTarget("search", arguments("{}"));

        RoutedCall routed = routeOne(routing(List.of(), null, hook), call("call-1", "run_block", "{}"), "hi");

        assertThat(routed.call().name()).isEqualTo("search");
        assertThat(routed.policy()).isNull();
    }

    @Test
    void paletteGateDropsAnUnofferedPolicyTargetAndDispatchesTheOriginal() {
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", SALES, Set.of(), "drop_table")),
                null, null);
        ToolCall emitted = call("call-1", "run_block", "{\"sql\": \"" + SECRET_ARGUMENT + "\"}");

        RoutedCall routed = routeOne(routing, emitted, "show sales");

        assertThat(routed).isEqualTo(new RoutedCall(emitted, emitted, "sales", true));
        assertThat(warnings).singleElement().satisfies(warning -> assertThat(warning.getMessage())
                .contains("\"sales\"", "\"drop_table\"", "not offered")
                .doesNotContain(SECRET_ARGUMENT));
    }

    @Test
    void paletteGateAlsoDropsAnUnofferedHookTarget() {
        ToolCallDispatchHook hook = (proposed, emitted, context) -> proposed.withTarget("drop_table",
                arguments("{}"));
        ToolCall emitted = call("call-1", "run_block", "{}");

        RoutedCall routed = routeOne(routing(List.of(), null, hook), emitted, "hi");

        assertThat(routed).isEqualTo(new RoutedCall(emitted, emitted, null, true));
        assertThat(warnings).singleElement().satisfies(warning ->
                assertThat(warning.getMessage()).contains("dispatch hook", "\"drop_table\""));
    }

    @Test
    void paletteGateJudgesOnlyWhatSurvivesTheHook() {
        ToolCallDispatchHook hook = (proposed, emitted, context) -> proposed.withTarget("search", arguments("{}"));
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", SALES, Set.of(), "drop_table")),
                null, hook);

        RoutedCall routed = routeOne(routing, call("call-1", "run_block", "{}"), "show sales");

        assertThat(routed.call().name()).isEqualTo("search");
        assertThat(routed.droppedByPaletteGate()).isFalse();
        assertThat(warnings).isEmpty();
    }

    @Test
    void paletteGateLeavesAnUnrewrittenCallAlone() {
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", SALES, Set.of(), "fetch_data")),
                null, null);
        ToolCall emitted = call("call-1", "not_offered", "{}");

        assertThat(routeOne(routing, emitted, "the weather")).isEqualTo(RoutedCall.unchanged(emitted));
        assertThat(warnings).isEmpty();
    }

    @Test
    void throwingArgsTransformSkipsThatPolicyAndTheNextOneApplies() {
        ToolCallPolicy broken = new ToolCallPolicy("broken", SALES, Set.of(), "search", null, (args, context) -> {
            throw new IllegalStateException(SECRET_ARGUMENT);
        }, null);
        IntentRouting routing = routing(List.of(broken,
                ToolCallPolicy.redirect("sales", SALES, Set.of(), "fetch_data")), null, null);

        RoutedCall routed = routeOne(routing, call("call-1", "run_block", "{}"), "show sales");

        assertThat(routed.policy()).isEqualTo("sales");
        assertThat(warnings).singleElement().satisfies(warning -> {
            assertThat(warning.getMessage()).contains("\"broken\"").doesNotContain(SECRET_ARGUMENT);
            assertThat(warning.getThrown()).isNull();
        });
    }

    @Test
    void throwingGuardLeavesTheCallAsEmitted() {
        ToolCallPolicy broken = new ToolCallPolicy("broken", SALES, Set.of(), "fetch_data", null, null, context -> {
            throw new IllegalStateException(SECRET_ARGUMENT);
        });
        ToolCall emitted = call("call-1", "run_block", "{}");

        assertThat(routeOne(routing(List.of(broken), null, null), emitted, "show sales"))
                .isEqualTo(RoutedCall.unchanged(emitted));
        assertThat(warnings).singleElement().satisfies(warning ->
                assertThat(warning.getMessage()).contains("\"broken\"").doesNotContain(SECRET_ARGUMENT));
    }

    @Test
    void argsTransformAnsweringNullSkipsThatPolicy() {
        ToolCallPolicy broken = new ToolCallPolicy("broken", SALES, Set.of(), "fetch_data", null,
                (args, context) -> null, null);
        ToolCall emitted = call("call-1", "run_block", "{}");

        assertThat(routeOne(routing(List.of(broken), null, null), emitted, "show sales"))
                .isEqualTo(RoutedCall.unchanged(emitted));
        assertThat(warnings).singleElement().satisfies(warning ->
                assertThat(warning.getMessage()).contains("\"broken\""));
    }

    @Test
    void throwingHookKeepsThePolicyRewrite() {
        ToolCallDispatchHook hook = (proposed, emitted, context) -> {
            throw new IllegalStateException(SECRET_ARGUMENT);
        };
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", SALES, Set.of(), "fetch_data")),
                null, hook);

        RoutedCall routed = routeOne(routing, call("call-1", "run_block", "{}"), "show sales");

        assertThat(routed.call().name()).isEqualTo("fetch_data");
        assertThat(warnings).singleElement().satisfies(warning ->
                assertThat(warning.getMessage()).contains("dispatch hook").doesNotContain(SECRET_ARGUMENT));
    }

    @Test
    void hookThatChangesTheCallIdIsIgnored() {
        ToolCallDispatchHook hook = (proposed, emitted, context) -> new ToolCall("forged", "search",
                arguments("{}"));
        ToolCall emitted = call("call-1", "run_block", "{}");

        assertThat(routeOne(routing(List.of(), null, hook), emitted, "hi")).isEqualTo(RoutedCall.unchanged(emitted));
        assertThat(warnings).singleElement().satisfies(warning ->
                assertThat(warning.getMessage()).contains("call's id"));
    }

    @Test
    void eachEmittedCallIsRoutedOnItsOwnInOrder() {
        IntentRouting routing = routing(List.of(ToolCallPolicy.redirect("sales", SALES, Set.of("run_block"),
                "fetch_data")), null, null);

        List<RoutedCall> routed = routing.route(List.of(call("a", "search", "{}"), call("b", "run_block", "{}"),
                call("c", "run_block", "{}")), context("show sales"), OFFERED);

        assertThat(routed).extracting(r -> r.call().id() + ":" + r.call().name())
                .containsExactly("a:search", "b:fetch_data", "c:fetch_data");
    }

    @Test
    void emptyConfigurationReturnsTheEmittedCallsUnchangedWithoutReadingTheContext() {
        List<ToolCall> emitted = List.of(call("a", "run_block", "{\"code\": \"x\"}"), call("b", "search", "{}"));

        List<RoutedCall> routed = routing(List.of(), null, null).route(emitted, null, Set.of());

        assertThat(routed).extracting(RoutedCall::call).containsExactlyElementsOf(emitted);
        assertThat(routed.get(0).call()).isSameAs(emitted.get(0));
        assertThat(routed).allSatisfy(r -> {
            assertThat(r.policy()).isNull();
            assertThat(r.droppedByPaletteGate()).isFalse();
        });
    }

    @Test
    void resolverAloneLeavesThePostSeamShortCircuited() {
        List<ToolCall> emitted = List.of(call("a", "not_offered", "{}"));

        List<RoutedCall> routed = routing(List.of(), context -> RESOLVED, null).route(emitted, null, Set.of());

        assertThat(routed).containsExactly(RoutedCall.unchanged(emitted.get(0)));
    }

    // Both seams

    @Test
    void bothSeamsSeeTheSameContextShape() {
        List<DispatchContext> seen = new ArrayList<>();
        Predicate<DispatchContext> recording = context -> seen.add(context);
        IntentRouting routing = routing(List.of(new ToolCallPolicy("sales", recording, Set.of(), "fetch_data",
                CHEAP, null, null)), null, null);
        List<ChatMessage> before = List.of(ChatMessage.user("show sales"));
        ToolCall emitted = call("call-1", "run_block", "{}");
        List<ChatMessage> after = List.of(before.get(0), ChatMessage.assistant("", List.of(emitted)));
        Map<String, String> scope = Map.of("brand", "acme");

        routing.chooseModel(IntentRouting.context(before, scope, List.of("run_block", "fetch_data"), null), DEFAULT);
        routing.route(List.of(emitted), IntentRouting.context(after, scope, List.of("run_block", "fetch_data"), null),
                OFFERED);

        assertThat(seen).hasSize(2);
        DispatchContext pre = seen.get(0);
        DispatchContext post = seen.get(1);
        assertThat(post.lastUserMessage()).isEqualTo(pre.lastUserMessage()).isEqualTo("show sales");
        assertThat(post.scope()).isEqualTo(pre.scope());
        assertThat(post.resolvedToolNames()).isEqualTo(pre.resolvedToolNames());
        assertThat(post.messages()).startsWith(pre.messages().toArray(ChatMessage[]::new))
                .last().isEqualTo(ChatMessage.assistant("", List.of(emitted)));
    }

    @Test
    void contextWithoutScopeHasAnEmptyScope() {
        assertThat(IntentRouting.context(List.of(), null, List.of(), null).scope()).isEmpty();
    }

    // Construction

    @Test
    void noOpPolicyIsRefusedAtConstruction() {
        assertThatThrownBy(() -> new ToolCallPolicy("idle", ALWAYS, Set.of(), null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"idle\"")
                .hasMessageContaining("neither a model nor a redirect target");
    }

    @Test
    void emptyPolicyNameIsRefusedAtConstruction() {
        assertThatThrownBy(() -> ToolCallPolicy.modelFor(" ", ALWAYS, CHEAP))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-empty name");
    }

    @Test
    void nullPolicyInTheListIsRefused() {
        List<ToolCallPolicy> policies = new ArrayList<>();
        policies.add(ToolCallPolicy.modelFor("cheap", ALWAYS, CHEAP));
        policies.add(null);

        assertThatThrownBy(() -> routing(policies, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("intent policy at index 1 is null");
    }

    @Test
    void routedCallMustKeepTheEmittedId() {
        assertThatThrownBy(() -> new RoutedCall(call("b", "search", "{}"), call("a", "search", "{}"), null, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"a\"");
    }

    private IntentRouting routing(List<ToolCallPolicy> policies, RoleModelResolver resolver,
                                  ToolCallDispatchHook hook) {
        return new IntentRouting(policies, resolver, hook, logger);
    }

    private static RoutedCall routeOne(IntentRouting routing, ToolCall emitted, String userText) {
        return routing.route(List.of(emitted), context(userText), OFFERED).get(0);
    }

    private static DispatchContext context(String userText) {
        return IntentRouting.context(List.of(ChatMessage.user(userText)), Map.of(), List.copyOf(OFFERED), null);
    }

    private static Predicate<DispatchContext> counting(AtomicInteger calls, Predicate<DispatchContext> inner) {
        return context -> {
            calls.incrementAndGet();
            return inner.test(context);
        };
    }

    private static ToolCall call(String id, String name, String json) {
        return new ToolCall(id, name, arguments(json));
    }

    private static ObjectNode arguments(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (Exception bad) {
            throw new IllegalArgumentException(json, bad);
        }
    }
}
