package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.intent.DispatchContext;
import io.countersign.engine.intent.IntentRouting;
import io.countersign.engine.intent.RoutedCall;
import io.countersign.engine.intent.ToolCallPolicies;
import io.countersign.engine.intent.ToolCallPolicy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ToolCallPoliciesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ModelConfiguration CHEAP = ModelConfiguration.scripted("cheap-model");
    private static final Function<String, ModelConfiguration> MODELS =
            name -> name.equals("cheap-model") ? CHEAP : null;

    @Test
    void wordsMatchAWholeWordIgnoringCase() {
        ToolCallPolicy policy = one("{\"name\": \"sales\", \"match\": {\"words\": [\"sales\", \"revenue\"]},"
                + " \"model\": \"cheap-model\"}");

        assertThat(policy.match().test(userSays("What was our REVENUE last week?"))).isTrue();
        assertThat(policy.match().test(userSays("sales, please"))).isTrue();
    }

    @Test
    void wordsDoNotMatchInsideLongerWords() {
        ToolCallPolicy policy = one("{\"name\": \"sales\", \"match\": {\"words\": [\"sale\"]},"
                + " \"model\": \"cheap-model\"}");

        assertThat(policy.match().test(userSays("wholesale prices"))).isFalse();
        assertThat(policy.match().test(userSays("the sales team"))).isFalse();
    }

    @Test
    void wordsMatchOnlyTheLastUserMessage() {
        ToolCallPolicy policy = one("{\"name\": \"sales\", \"match\": {\"words\": [\"sales\"]},"
                + " \"model\": \"cheap-model\"}");
        DispatchContext context = new DispatchContext(List.of(ChatMessage.user("show sales"),
                ChatMessage.assistant("sales are up", List.of()), ChatMessage.user("now the weather")),
                Map.of(), List.of(), null);

        assertThat(policy.match().test(context)).isFalse();
    }

    @Test
    void regexIsFoundInTheLastUserMessage() {
        ToolCallPolicy policy = one("{\"name\": \"quarter\", \"match\": {\"regex\": \"Q[1-4] 20\\\\d\\\\d\"},"
                + " \"model\": \"cheap-model\"}");

        assertThat(policy.match().test(userSays("numbers for Q3 2025 please"))).isTrue();
        assertThat(policy.match().test(userSays("numbers for q3 2025 please"))).isFalse();
    }

    @Test
    void scopeMatchesWhenEveryGivenKeyIsEqual() {
        ToolCallPolicy policy = one("{\"name\": \"acme\", \"match\": {\"scope\": {\"brand\": \"acme\","
                + " \"region\": \"eu\"}}, \"model\": \"cheap-model\"}");

        assertThat(policy.match().test(scoped(Map.of("brand", "acme", "region", "eu", "team", "x")))).isTrue();
        assertThat(policy.match().test(scoped(Map.of("brand", "acme", "region", "us")))).isFalse();
        assertThat(policy.match().test(scoped(Map.of("brand", "acme")))).isFalse();
    }

    @Test
    void whenToolAcceptsOneName() {
        assertThat(one(redirect("\"whenTool\": \"run_block\"")).whenTool()).containsExactly("run_block");
    }

    @Test
    void whenToolAcceptsAnArrayOfNames() {
        assertThat(one(redirect("\"whenTool\": [\"run_block\", \"search\"]")).whenTool())
                .containsExactlyInAnyOrder("run_block", "search");
    }

    @Test
    void absentWhenToolMeansAnyTool() {
        assertThat(one(redirect("\"argsTransform\": {\"fixed\": {}}")).whenTool()).isEmpty();
    }

    @Test
    void modelIsResolvedByName() {
        assertThat(one("{\"name\": \"sales\", \"match\": {\"words\": [\"sales\"]}, \"model\": \"cheap-model\"}")
                .model()).isSameAs(CHEAP);
    }

    @Test
    void guardHoldsOnlyWhenTheToolIsOffered() {
        ToolCallPolicy policy = one(redirect("\"guard\": {\"toolOffered\": \"fetch_data\"}"));
        DispatchContext offered = new DispatchContext(List.of(), Map.of(), List.of("fetch_data"), null);
        DispatchContext notOffered = new DispatchContext(List.of(), Map.of(), List.of("run_block"), null);

        assertThat(policy.guard().test(offered)).isTrue();
        assertThat(policy.guard().test(notOffered)).isFalse();
    }

    @Test
    void fixedTransformReplacesTheArguments() {
        ToolCallPolicy policy = one(redirect("\"argsTransform\": {\"fixed\": {\"table\": \"brand_sales\"}}"));

        ObjectNode rewritten = policy.argsTransform().apply(object("{\"code\": \"x\"}"), userSays("sales"));

        assertThat(rewritten).isEqualTo(object("{\"table\": \"brand_sales\"}"));
    }

    @Test
    void fixedTransformHandsOutACopyEachTime() {
        ToolCallPolicy policy = one(redirect("\"argsTransform\": {\"fixed\": {\"table\": \"brand_sales\"}}"));

        policy.argsTransform().apply(object("{}"), userSays("sales")).put("table", "payroll");

        assertThat(policy.argsTransform().apply(object("{}"), userSays("sales")))
                .isEqualTo(object("{\"table\": \"brand_sales\"}"));
    }

    @Test
    void policiesKeepTheirDeclaredOrder() {
        List<ToolCallPolicy> policies = ToolCallPolicies.parse(json("[{\"name\": \"b\", \"match\": {\"words\":"
                + " [\"x\"]}, \"model\": \"cheap-model\"}, {\"name\": \"a\", \"match\": {\"words\": [\"x\"]},"
                + " \"redirectTo\": \"search\"}]"), MODELS);

        assertThat(policies).extracting(ToolCallPolicy::name).containsExactly("b", "a");
    }

    @Test
    void theSeedExampleSwapsTheModelAndPinsTheTool() {
        IntentRouting routing = IntentRouting.of(ToolCallPolicies.parse(json("[{\"name\": \"sales_data_read\","
                + " \"match\": {\"words\": [\"sales\"]}, \"model\": \"cheap-model\", \"whenTool\": \"run_block\","
                + " \"redirectTo\": \"fetch_data\", \"guard\": {\"toolOffered\": \"fetch_data\"},"
                + " \"argsTransform\": {\"fixed\": {\"table\": \"brand_sales\"}}}]"), MODELS), null, null);
        List<String> offered = List.of("run_block", "fetch_data");
        ToolCall emitted = new ToolCall("call-1", "run_block", object("{\"code\": \"select 1\"}"));
        List<ChatMessage> messages = List.of(ChatMessage.user("Brand sales for March?"));
        ModelConfiguration fallback = ModelConfiguration.scripted("default-model");

        ModelConfiguration chosen = routing.chooseModel(IntentRouting.context(messages, null, offered, null),
                fallback);
        List<RoutedCall> routed = routing.route(List.of(emitted), IntentRouting.context(List.of(messages.get(0),
                ChatMessage.assistant("", List.of(emitted))), null, offered, null), Set.copyOf(offered));

        assertThat(chosen).isSameAs(CHEAP);
        assertThat(routed).containsExactly(new RoutedCall(new ToolCall("call-1", "fetch_data",
                object("{\"table\": \"brand_sales\"}")), emitted, "sales_data_read", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badConfigurations")
    void badConfigurationIsRefusedNamingThePolicyAndTheField(String mistake, String config, String message) {
        assertThatThrownBy(() -> ToolCallPolicies.parse(json(config), MODELS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    static Stream<Arguments> badConfigurations() {
        String match = "\"match\": {\"words\": [\"sales\"]}";
        return Stream.of(
                Arguments.of("not an array", "{\"name\": \"sales\"}",
                        "tool call policies must be a JSON array of policy objects, got object"),
                Arguments.of("element not an object", "[\"sales\"]",
                        "tool call policy [0] (no name): must be a JSON object, got string"),
                Arguments.of("missing name", "[{" + match + ", \"model\": \"cheap-model\"}]",
                        "tool call policy [0] (no name): \"name\" is required"),
                Arguments.of("blank name", "[{\"name\": \" \", " + match + ", \"model\": \"cheap-model\"}]",
                        "tool call policy [0] (no name): \"name\" must be a non-empty string, got a blank one"),
                Arguments.of("name not a string", "[{\"name\": 7, " + match + ", \"model\": \"cheap-model\"}]",
                        "tool call policy [0] (no name): \"name\" must be a non-empty string, got number"),
                Arguments.of("unknown field", "[{\"name\": \"sales\", " + match + ", \"redirect\": \"x\"}]",
                        "tool call policy [0] \"sales\": unknown field \"redirect\"; expected one of name, match,"
                                + " whenTool, redirectTo, model, guard, argsTransform"),
                Arguments.of("duplicate name", "[{\"name\": \"sales\", " + match + ", \"model\": \"cheap-model\"},"
                                + " {\"name\": \"sales\", " + match + ", \"redirectTo\": \"fetch_data\"}]",
                        "tool call policy [1] \"sales\": \"name\" is already used by an earlier policy"),
                Arguments.of("no-op policy", "[{\"name\": \"sales\", " + match + "}]",
                        "tool call policy [0] \"sales\": sets neither \"model\" nor \"redirectTo\", so it would do"
                                + " nothing"),
                Arguments.of("missing match", "[{\"name\": \"sales\", \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match\" is required"),
                Arguments.of("match not an object", "[{\"name\": \"sales\", \"match\": \"sales\","
                                + " \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match\" must be a JSON object, got string"),
                Arguments.of("two match kinds", "[{\"name\": \"sales\", \"match\": {\"words\": [\"a\"],"
                                + " \"regex\": \"a\"}, \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match\" must have exactly one of words, regex, scope,"
                                + " got words, regex"),
                Arguments.of("empty match", "[{\"name\": \"sales\", \"match\": {}, \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match\" must have exactly one of words, regex, scope,"
                                + " got none"),
                Arguments.of("unknown match kind", "[{\"name\": \"sales\", \"match\": {\"contains\": \"a\"},"
                                + " \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match\" has unknown field \"contains\"; expected one of"
                                + " words, regex, scope"),
                Arguments.of("empty words", "[{\"name\": \"sales\", \"match\": {\"words\": []},"
                                + " \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match.words\" must be a non-empty array of words,"
                                + " got an empty one"),
                Arguments.of("words not an array", "[{\"name\": \"sales\", \"match\": {\"words\": \"sales\"},"
                                + " \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match.words\" must be a non-empty array of words,"
                                + " got string"),
                Arguments.of("word not a string", "[{\"name\": \"sales\", \"match\": {\"words\": [\"a\", 3]},"
                                + " \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match.words[1]\" must be a non-empty string, got number"),
                Arguments.of("bad regex", "[{\"name\": \"sales\", \"match\": {\"regex\": \"(sales\"},"
                                + " \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match.regex\" is not a valid regular expression:"
                                + " Unclosed group near index 6"),
                Arguments.of("empty scope", "[{\"name\": \"sales\", \"match\": {\"scope\": {}},"
                                + " \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match.scope\" must name at least one scope key"),
                Arguments.of("scope value not a string", "[{\"name\": \"sales\", \"match\": {\"scope\":"
                                + " {\"brand\": 1}}, \"model\": \"cheap-model\"}]",
                        "tool call policy [0] \"sales\": \"match.scope.brand\" must be a non-empty string,"
                                + " got number"),
                Arguments.of("bad redirect target", "[{\"name\": \"sales\", " + match
                                + ", \"redirectTo\": \"Fetch Data\"}]",
                        "tool call policy [0] \"sales\": \"redirectTo\" tool name \"Fetch Data\" must match"
                                + " [a-z][a-z0-9_.-]* and be 1 to 64 characters long"),
                Arguments.of("whenTool wrong type", "[{\"name\": \"sales\", " + match
                                + ", \"redirectTo\": \"fetch_data\", \"whenTool\": 5}]",
                        "tool call policy [0] \"sales\": \"whenTool\" must be a tool name or an array of tool"
                                + " names, got number"),
                Arguments.of("whenTool bad name", "[{\"name\": \"sales\", " + match
                                + ", \"redirectTo\": \"fetch_data\", \"whenTool\": [\"run_block\", \"Run\"]}]",
                        "tool call policy [0] \"sales\": \"whenTool[1]\" tool name \"Run\" must match"
                                + " [a-z][a-z0-9_.-]* and be 1 to 64 characters long"),
                Arguments.of("whenTool empty array", "[{\"name\": \"sales\", " + match
                                + ", \"redirectTo\": \"fetch_data\", \"whenTool\": []}]",
                        "tool call policy [0] \"sales\": \"whenTool\" must name at least one tool; leave it out"
                                + " to redirect any tool"),
                Arguments.of("unknown model", "[{\"name\": \"sales\", " + match + ", \"model\": \"gpt-9\"}]",
                        "tool call policy [0] \"sales\": \"model\" names an unknown model configuration"
                                + " \"gpt-9\""),
                Arguments.of("model not a string", "[{\"name\": \"sales\", " + match + ", \"model\": {}}]",
                        "tool call policy [0] \"sales\": \"model\" must be a non-empty string, got object"),
                Arguments.of("guard without redirect", "[{\"name\": \"sales\", " + match
                                + ", \"model\": \"cheap-model\", \"guard\": {\"toolOffered\": \"fetch_data\"}}]",
                        "tool call policy [0] \"sales\": \"guard\" only shapes a redirect; set \"redirectTo\" or"
                                + " remove \"guard\""),
                Arguments.of("whenTool without redirect", "[{\"name\": \"sales\", " + match
                                + ", \"model\": \"cheap-model\", \"whenTool\": \"run_block\"}]",
                        "tool call policy [0] \"sales\": \"whenTool\" only shapes a redirect; set \"redirectTo\""
                                + " or remove \"whenTool\""),
                Arguments.of("unknown guard", "[{\"name\": \"sales\", " + match
                                + ", \"redirectTo\": \"fetch_data\", \"guard\": {\"tableExists\": \"x\"}}]",
                        "tool call policy [0] \"sales\": \"guard\" has unknown field \"tableExists\"; expected"
                                + " one of toolOffered"),
                Arguments.of("guard bad tool name", "[{\"name\": \"sales\", " + match
                                + ", \"redirectTo\": \"fetch_data\", \"guard\": {\"toolOffered\": \"\"}}]",
                        "tool call policy [0] \"sales\": \"guard.toolOffered\" must be a non-empty string,"
                                + " got a blank one"),
                Arguments.of("unknown transform", "[{\"name\": \"sales\", " + match
                                + ", \"redirectTo\": \"fetch_data\", \"argsTransform\": {\"merge\": {}}}]",
                        "tool call policy [0] \"sales\": \"argsTransform\" has unknown field \"merge\"; expected"
                                + " one of fixed"),
                Arguments.of("fixed not an object", "[{\"name\": \"sales\", " + match
                                + ", \"redirectTo\": \"fetch_data\", \"argsTransform\": {\"fixed\": [1]}}]",
                        "tool call policy [0] \"sales\": \"argsTransform.fixed\" must be a JSON object,"
                                + " got array"),
                Arguments.of("second policy is named by its index", "[{\"name\": \"ok\", " + match
                                + ", \"model\": \"cheap-model\"}, {\"name\": \"late\", " + match + "}]",
                        "tool call policy [1] \"late\": sets neither \"model\" nor \"redirectTo\", so it would do"
                                + " nothing"));
    }

    private static String redirect(String extra) {
        return "{\"name\": \"pin\", \"match\": {\"words\": [\"sales\"]}, \"redirectTo\": \"fetch_data\", "
                + extra + "}";
    }

    private static ToolCallPolicy one(String policy) {
        return ToolCallPolicies.parse(json("[" + policy + "]"), MODELS).get(0);
    }

    private static DispatchContext userSays(String text) {
        return new DispatchContext(List.of(ChatMessage.user(text)), Map.of(), List.of(), null);
    }

    private static DispatchContext scoped(Map<String, String> scope) {
        return new DispatchContext(List.of(), scope, List.of(), null);
    }

    private static ObjectNode object(String text) {
        return (ObjectNode) json(text);
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception bad) {
            throw new IllegalArgumentException(text, bad);
        }
    }
}
