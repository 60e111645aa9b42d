package io.countersign.model;

import static io.countersign.model.Fixtures.answer;
import static io.countersign.model.Fixtures.ask;
import static io.countersign.model.Fixtures.configuration;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.port.ModelException;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.tool.ToolSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class OpenAiCompatibleChatModelTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OkHttpClient HTTP = new OkHttpClient();
    private static final Duration BASE_BACKOFF = Duration.ofMillis(400);
    private static final HttpModelOptions OPTIONS = new HttpModelOptions(Duration.ofSeconds(2),
            Duration.ofSeconds(2), Duration.ofSeconds(5), 2, BASE_BACKOFF);
    private static final String KEY = "sk-proj-Xq7vT2mN9pL4kR8sW1yZ";

    private final List<Duration> waits = new ArrayList<>();
    private final Map<String, String> environment = Map.of("OPENAI_API_KEY", "  " + KEY + "\n");
    private MockWebServer server;

    @BeforeEach
    void startServer() throws IOException {
        server = Fixtures.startServer();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private OpenAiCompatibleChatModel model(ModelConfiguration configuration, HttpModelOptions options) {
        return new OpenAiCompatibleChatModel(configuration, HTTP, options, environment::get, waits::add);
    }

    private OpenAiCompatibleChatModel model(ModelConfiguration configuration) {
        return model(configuration, OPTIONS);
    }

    private OpenAiCompatibleChatModel model() {
        return model(configuration(server));
    }

    private static MockResponse ok(String body) {
        return new MockResponse.Builder().addHeader("Content-Type", "application/json").body(body).build();
    }

    private static MockResponse status(int code, String body) {
        return new MockResponse.Builder().code(code).addHeader("Content-Type", "application/json").body(body)
                .build();
    }

    private AssistantTurn answerTo(String question) throws ModelException {
        OpenAiCompatibleChatModel model = model();
        return model.complete(ask(configuration(server), question));
    }

    private ModelException failureOf(String question) {
        return catchThrowableOfType(ModelException.class, () -> answerTo(question));
    }

    private JsonNode recordedBody() throws Exception {
        RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
        return JSON.readTree(request.getBody().utf8());
    }

    private static ObjectNode object(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static ToolSpec tool(String name) {
        return new ToolSpec(name, "Reads a file of the workspace.", object(
                "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}"));
    }

    // --- answers in the wire formats of OpenAI and Ollama

    @ParameterizedTest
    @CsvSource({"openai-plain, 19, 10", "ollama-plain, 31, 12"})
    void plainAnswerReadsContentAndUsage(String recorded, long prompt, long completion) throws Exception {
        server.enqueue(ok(answer(recorded)));

        AssistantTurn turn = answerTo("Is the build green?");

        assertThat(turn.content()).isEqualTo("The build is green; nothing needs your approval.");
        assertThat(turn.toolCalls()).isEmpty();
        assertThat(turn.usage()).isEqualTo(new TokenUsage(prompt, completion));
    }

    @ParameterizedTest
    @CsvSource({"openai-tool-call, call_Qh4x0gNRmVGzgFEEdxKqZqvB", "ollama-tool-call, call_hk81qg8b"})
    void oneToolCallCarriesIdNameAndParsedArguments(String recorded, String id) throws Exception {
        server.enqueue(ok(answer(recorded)));

        AssistantTurn turn = answerTo("What is left to do?");

        assertThat(turn.content()).isEmpty();
        assertThat(turn.toolCalls()).containsExactly(
                new ToolCall(id, "read_file", object("{\"path\":\"notes/todo.md\"}")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai-parallel-tool-calls", "ollama-parallel-tool-calls"})
    void parallelToolCallsKeepTheirOrder(String recorded) throws Exception {
        server.enqueue(ok(answer(recorded)));

        AssistantTurn turn = answerTo("Move the first item to done.");

        assertThat(turn.toolCalls()).extracting(ToolCall::name).containsExactly("read_file", "write_file");
        assertThat(turn.toolCalls().get(1).arguments())
                .isEqualTo(object("{\"path\":\"notes/done.md\",\"content\":\"- ship the model adapter\\n\"}"));
        assertThat(turn.toolCalls()).extracting(ToolCall::id).doesNotHaveDuplicates().allMatch(id -> !id.isBlank());
    }

    @Test
    void absentUsageCountsAsZero() throws Exception {
        server.enqueue(ok("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"done\"}}]}"));

        assertThat(answerTo("Done?").usage()).isEqualTo(TokenUsage.NONE);
    }

    @Test
    void emptyArgumentsStringMeansNoArguments() throws Exception {
        server.enqueue(ok("{\"choices\":[{\"message\":{\"content\":null,\"tool_calls\":[{\"id\":\"call_1\","
                + "\"type\":\"function\",\"function\":{\"name\":\"list_runs\",\"arguments\":\"\"}}]}}]}"));

        assertThat(answerTo("Which runs wait?").toolCalls().get(0).arguments()).isEmpty();
    }

    @Test
    void argumentsSentAsAnObjectAreAccepted() throws Exception {
        server.enqueue(ok("{\"choices\":[{\"message\":{\"content\":\"\",\"tool_calls\":[{\"id\":\"call_1\","
                + "\"function\":{\"name\":\"read_file\",\"arguments\":{\"path\":\"a.txt\"}}}]}}]}"));

        assertThat(answerTo("Read a.txt").toolCalls().get(0).arguments()).isEqualTo(object("{\"path\":\"a.txt\"}"));
    }

    @Test
    void toolCallsWithoutIdsGetPositionalIds() throws Exception {
        server.enqueue(ok("{\"choices\":[{\"message\":{\"content\":\"\",\"tool_calls\":["
                + "{\"function\":{\"name\":\"read_file\",\"arguments\":\"{}\"}},"
                + "{\"id\":\"\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{}\"}}]}}]}"));

        assertThat(answerTo("Read twice").toolCalls()).extracting(ToolCall::id).containsExactly("call_0", "call_1");
    }

    @Test
    void refusalBecomesTheContent() throws Exception {
        server.enqueue(ok("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,"
                + "\"refusal\":\"I can't help with that.\"},\"finish_reason\":\"stop\"}]}"));

        assertThat(answerTo("Delete production").content()).isEqualTo("I can't help with that.");
    }

    // --- what is sent

    @ParameterizedTest
    @ValueSource(strings = {"/v1", "/v1/"})
    void requestIsPostedToChatCompletionsUnderTheEndpoint(String base) throws Exception {
        ModelConfiguration configuration = new ModelConfiguration("local-llama", "ollama", "llama3.2",
                server.url(base).toString(), TrustZone.LOCAL, null, null, null, null);
        server.enqueue(ok(answer("ollama-plain")));

        model(configuration).complete(ask(configuration, "Hello"));

        RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(request.getMethod()).isEqualTo("POST");
        assertThat(request.getUrl().encodedPath()).isEqualTo("/v1/chat/completions");
        assertThat(request.getHeaders().get("Content-Type")).startsWith("application/json");
    }

    @Test
    void requestBodyCarriesTranscriptToolsAndOptions() throws Exception {
        ModelConfiguration configuration = new ModelConfiguration("gpt", "openai", "gpt-4o-mini",
                server.url("/v1").toString(), TrustZone.EXTERNAL_GLOBAL, 0.2, 512, null, null);
        ToolCall call = new ToolCall("call_1", "read_file", object("{\"path\":\"notes/todo.md\"}"));
        ChatRequest request = new ChatRequest(configuration, List.of(
                ChatMessage.system("You tidy notes."),
                ChatMessage.user("What is left?"),
                ChatMessage.assistant("", List.of(call)),
                ChatMessage.tool("call_1", "- ship the model adapter")),
                List.of(tool("read_file")), null);
        server.enqueue(ok(answer("openai-plain")));

        model(configuration).complete(request);

        assertThat(recordedBody()).isEqualTo(JSON.readTree("""
                {"model": "gpt-4o-mini",
                 "messages": [
                   {"role": "system", "content": "You tidy notes."},
                   {"role": "user", "content": "What is left?"},
                   {"role": "assistant", "content": "", "tool_calls": [
                     {"id": "call_1", "type": "function",
                      "function": {"name": "read_file", "arguments": "{\\"path\\":\\"notes/todo.md\\"}"}}]},
                   {"role": "tool", "content": "- ship the model adapter", "tool_call_id": "call_1"}],
                 "tools": [
                   {"type": "function", "function": {"name": "read_file",
                     "description": "Reads a file of the workspace.",
                     "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                                    "required": ["path"]}}}],
                 "temperature": 0.2,
                 "max_tokens": 512}
                """));
    }

    @Test
    void toolsToolChoiceAndOptionsAreLeftOutWhenNotSet() throws Exception {
        server.enqueue(ok(answer("ollama-plain")));

        answerTo("Hello");

        JsonNode body = recordedBody();
        assertThat(body.has("tools")).isFalse();
        assertThat(body.has("tool_choice")).isFalse();
        assertThat(body.has("temperature")).isFalse();
        assertThat(body.has("max_tokens")).isFalse();
    }

    @Test
    void toolChoiceNamingAToolBecomesAFunctionChoice() throws Exception {
        ModelConfiguration configuration = configuration(server);
        server.enqueue(ok(answer("ollama-tool-call")));

        model(configuration).complete(new ChatRequest(configuration, List.of(ChatMessage.user("Read it")),
                List.of(tool("read_file"), tool("list_files")), "read_file"));

        assertThat(recordedBody().get("tool_choice"))
                .isEqualTo(JSON.readTree("{\"type\":\"function\",\"function\":{\"name\":\"read_file\"}}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "auto", "required"})
    void toolChoiceKeywordsPassThrough(String choice) throws Exception {
        ModelConfiguration configuration = configuration(server);
        server.enqueue(ok(answer("ollama-plain")));

        model(configuration).complete(new ChatRequest(configuration, List.of(ChatMessage.user("Hello")),
                List.of(tool("read_file")), choice));

        assertThat(recordedBody().get("tool_choice").asText()).isEqualTo(choice);
    }

    @Test
    void toolChoiceOfAToolNotOfferedIsRefusedBeforeSending() {
        ModelConfiguration configuration = configuration(server);

        assertThatThrownBy(() -> model(configuration).complete(new ChatRequest(configuration,
                List.of(ChatMessage.user("Hello")), List.of(tool("read_file")), "delete_file")))
                .isInstanceOf(ModelException.class)
                .hasMessageContaining("\"delete_file\"")
                .extracting(e -> ((ModelException) e).reasonCode()).isEqualTo("invalid_request");
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void requestForAnotherModelConfigurationIsRefused() {
        ModelConfiguration other = new ModelConfiguration("cloud-gpt", "openai", "gpt-4o-mini",
                "https://api.openai.com/v1", TrustZone.EXTERNAL_GLOBAL, null, null, null, null);

        ModelException failure = catchThrowableOfType(ModelException.class,
                () -> model().complete(ask(other, "Hello")));

        assertThat(failure.reasonCode()).isEqualTo("model_mismatch");
        assertThat(failure).hasMessageContaining("\"local-llama\"").hasMessageContaining("\"cloud-gpt\"");
        assertThat(server.getRequestCount()).isZero();
    }

    // --- the API key

    @Test
    void keyFromTheEnvironmentIsSentTrimmedAsBearer() throws Exception {
        ModelConfiguration configuration = configuration(server, "OPENAI_API_KEY", null);
        server.enqueue(ok(answer("openai-plain")));

        model(configuration).complete(ask(configuration, "Hello"));

        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getHeaders().get("Authorization"))
                .isEqualTo("Bearer " + KEY);
    }

    @Test
    void keyFromAFileIsSentTrimmedAsBearer(@TempDir Path folder) throws Exception {
        Path keyFile = Files.writeString(folder.resolve("openai.key"), KEY + "\n");
        ModelConfiguration configuration = configuration(server, null, keyFile.toString());
        server.enqueue(ok(answer("openai-plain")));

        model(configuration).complete(ask(configuration, "Hello"));

        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getHeaders().get("Authorization"))
                .isEqualTo("Bearer " + KEY);
    }

    @Test
    void keyIsReadAgainForEveryRequest() throws Exception {
        Map<String, String> rotating = new java.util.HashMap<>(Map.of("OPENAI_API_KEY", "sk-old"));
        ModelConfiguration configuration = configuration(server, "OPENAI_API_KEY", null);
        OpenAiCompatibleChatModel model = new OpenAiCompatibleChatModel(configuration, HTTP, OPTIONS,
                rotating::get, waits::add);
        server.enqueue(ok(answer("openai-plain")));
        server.enqueue(ok(answer("openai-plain")));

        model.complete(ask(configuration, "Hello"));
        rotating.put("OPENAI_API_KEY", "sk-new");
        model.complete(ask(configuration, "Hello again"));

        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getHeaders().get("Authorization"))
                .isEqualTo("Bearer sk-old");
        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getHeaders().get("Authorization"))
                .isEqualTo("Bearer sk-new");
    }

    @Test
    void noKeyConfiguredSendsNoAuthorization() throws Exception {
        server.enqueue(ok(answer("ollama-plain")));

        answerTo("Hello");

        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getHeaders().get("Authorization")).isNull();
    }

    @Test
    void unsetKeyVariableIsMissingCredentialsNamingIt() {
        ModelConfiguration configuration = configuration(server, "MISTRAL_API_KEY", null);

        ModelException failure = catchThrowableOfType(ModelException.class,
                () -> model(configuration).complete(ask(configuration, "Hello")));

        assertThat(failure.reasonCode()).isEqualTo("missing_credentials");
        assertThat(failure).hasMessageContaining("environment variable MISTRAL_API_KEY").hasMessageContaining("not set");
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void unreadableKeyFileIsMissingCredentialsNamingIt(@TempDir Path folder) {
        String keyFile = folder.resolve("absent.key").toString();
        ModelConfiguration configuration = configuration(server, null, keyFile);

        ModelException failure = catchThrowableOfType(ModelException.class,
                () -> model(configuration).complete(ask(configuration, "Hello")));

        assertThat(failure.reasonCode()).isEqualTo("missing_credentials");
        assertThat(failure).hasMessageContaining("key file " + keyFile).hasMessageContaining("cannot be read");
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void keyThatCannotBeSentIsRefusedWithoutQuotingIt() {
        ModelConfiguration configuration = configuration(server, "BROKEN_KEY", null);
        OpenAiCompatibleChatModel model = new OpenAiCompatibleChatModel(configuration, HTTP, OPTIONS,
                Map.of("BROKEN_KEY", "sk-first\nsk-second")::get, waits::add);

        ModelException failure = catchThrowableOfType(ModelException.class,
                () -> model.complete(ask(configuration, "Hello")));

        assertThat(failure.reasonCode()).isEqualTo("invalid_credentials");
        assertThat(failure.getMessage()).contains("BROKEN_KEY").doesNotContain("sk-first").doesNotContain("sk-second");
    }

    @Test
    void keyNeverAppearsInAFailureOrInToString() {
        ModelConfiguration configuration = configuration(server, "OPENAI_API_KEY", null);
        OpenAiCompatibleChatModel model = model(configuration);
        server.enqueue(status(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY
                + ". You can find your API key at https://platform.openai.com/account/api-keys.\","
                + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}"));

        ModelException failure = catchThrowableOfType(ModelException.class,
                () -> model.complete(ask(configuration, "Hello")));

        assertThat(failure.reasonCode()).isEqualTo("provider_rejected");
        assertThat(failure.getMessage()).contains("HTTP 401").doesNotContain(KEY, "Incorrect API key");
        assertThat(model.toString()).contains("OPENAI_API_KEY").doesNotContain(KEY);
    }

    @Test
    void twoKeySourcesAreRefusedOnConstruction() {
        assertThatThrownBy(() -> model(configuration(server, "OPENAI_API_KEY", "/etc/countersign/openai.key")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("both an API key environment variable and an API key file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "localhost:11434/v1"})
    void unusableEndpointIsRefusedOnConstruction(String endpoint) {
        ModelConfiguration configuration = new ModelConfiguration("local-llama", "ollama", "llama3.2", endpoint,
                TrustZone.LOCAL, null, null, null, null);

        assertThatThrownBy(() -> model(configuration))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"local-llama\"");
    }

    // --- failures

    @Test
    void rateLimitWaitsForRetryAfterSecondsThenSucceeds() throws Exception {
        server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "7")
                .body(answer("openai-rate-limited")).build());
        server.enqueue(ok(answer("openai-plain")));

        AssistantTurn turn = answerTo("Hello");

        assertThat(turn.content()).isEqualTo("The build is green; nothing needs your approval.");
        assertThat(waits).containsExactly(Duration.ofSeconds(7));
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void retryAfterAsAnHttpDateIsMeasuredAgainstTheProvidersClock() throws Exception {
        Instant providerNow = Instant.parse("2025-03-10T09:00:00Z");
        DateTimeFormatter http = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);
        server.enqueue(new MockResponse.Builder().code(503)
                .addHeader("Date", http.format(providerNow))
                .addHeader("Retry-After", http.format(providerNow.plusSeconds(12))).build());
        server.enqueue(ok(answer("openai-plain")));

        answerTo("Hello");

        assertThat(waits).containsExactly(Duration.ofSeconds(12));
    }

    @Test
    void retryAfterInMillisecondsIsHonoured() throws Exception {
        server.enqueue(new MockResponse.Builder().code(429).addHeader("retry-after-ms", "1250").build());
        server.enqueue(ok(answer("openai-plain")));

        answerTo("Hello");

        assertThat(waits).containsExactly(Duration.ofMillis(1250));
    }

    @Test
    void retryAfterIsCappedAtOneMinute() throws Exception {
        server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "3600").build());
        server.enqueue(ok(answer("openai-plain")));

        answerTo("Hello");

        assertThat(waits).containsExactly(OpenAiCompatibleChatModel.MAX_RETRY_WAIT);
    }

    @Test
    void serverErrorIsRetriedAfterAJitteredBackoff() throws Exception {
        server.enqueue(status(500, "{\"error\":{\"message\":\"The server had an error while processing your "
                + "request. Sorry about that!\",\"type\":\"server_error\",\"param\":null,\"code\":null}}"));
        server.enqueue(ok(answer("openai-plain")));

        assertThat(answerTo("Hello").content()).isNotEmpty();
        assertThat(waits).singleElement().satisfies(wait ->
                assertThat(wait).isBetween(BASE_BACKOFF.dividedBy(2), BASE_BACKOFF));
    }

    @Test
    void backoffDoublesWithEveryRetry() throws Exception {
        server.enqueue(status(502, "<html><body>Bad gateway</body></html>"));
        server.enqueue(status(503, ""));
        server.enqueue(ok(answer("ollama-plain")));

        answerTo("Hello");

        assertThat(waits).hasSize(2);
        assertThat(waits.get(0)).isBetween(BASE_BACKOFF.dividedBy(2), BASE_BACKOFF);
        assertThat(waits.get(1)).isBetween(BASE_BACKOFF, BASE_BACKOFF.multipliedBy(2));
    }

    @Test
    void exhaustedRetriesAreProviderUnavailableWithTheLastAnswer() {
        for (int i = 0; i <= OPTIONS.maxRetries(); i++) {
            server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "1")
                    .body(answer("openai-rate-limited")).build());
        }

        ModelException failure = failureOf("Hello");

        assertThat(failure.reasonCode()).isEqualTo("provider_unavailable");
        assertThat(failure).hasMessageContaining("failed 3 times").hasMessageEndingWith("HTTP 429")
                .hasMessageNotContaining("Rate limit reached");
        assertThat(server.getRequestCount()).isEqualTo(3);
        assertThat(waits).hasSize(2);
    }

    @Test
    void clientErrorIsRejectedWithoutRetry() {
        server.enqueue(status(400, answer("openai-bad-request")));
        server.enqueue(ok(answer("openai-plain")));

        ModelException failure = failureOf("Hello");

        assertThat(failure.reasonCode()).isEqualTo("provider_rejected");
        assertThat(failure).hasMessageEndingWith("rejected the request with HTTP 400")
                .hasMessageNotContaining("Invalid parameter");
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void redirectIsRejectedNamingWhereItPoints() {
        server.enqueue(new MockResponse.Builder().code(301)
                .addHeader("Location", "https://api.example.com/v1/chat/completions").build());

        ModelException failure = failureOf("Hello");

        assertThat(failure.reasonCode()).isEqualTo("provider_rejected");
        assertThat(failure).hasMessageContaining("HTTP 301 (redirects to https://api.example.com/v1/chat/completions)");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void unknownOllamaModelIsRejectedWithItsStatusAlone() {
        server.enqueue(status(404, answer("ollama-model-not-found")));

        ModelException failure = failureOf("Hello");

        assertThat(failure.reasonCode()).isEqualTo("provider_rejected");
        assertThat(failure).hasMessageEndingWith("HTTP 404").hasMessageNotContaining("llama9");
    }

    @Test
    void droppedConnectionIsRetried() throws Exception {
        server.enqueue(new MockResponse.Builder().onResponseStart(new mockwebserver3.SocketEffect.CloseSocket())
                .build());
        server.enqueue(ok(answer("ollama-plain")));

        assertThat(answerTo("Hello").content()).isNotEmpty();
        assertThat(waits).hasSize(1);
    }

    @Test
    void unreachableServerIsProviderUnavailable() {
        ModelConfiguration configuration = configuration(server);
        server.close();

        ModelException failure = catchThrowableOfType(ModelException.class,
                () -> model(configuration).complete(ask(configuration, "Hello")));

        assertThat(failure.reasonCode()).isEqualTo("provider_unavailable");
        assertThat(failure).hasMessageContaining("connection failed");
        assertThat(waits).hasSize(OPTIONS.maxRetries());
    }

    @Test
    void providerThatStallsPastTheReadTimeoutTimesOutWithoutRetry() {
        HttpModelOptions impatient = new HttpModelOptions(Duration.ofSeconds(1), Duration.ofMillis(200),
                Duration.ofSeconds(5), 2, BASE_BACKOFF);
        ModelConfiguration configuration = configuration(server);
        server.enqueue(ok(answer("openai-plain")).newBuilder().bodyDelay(3, TimeUnit.SECONDS).build());

        long started = System.nanoTime();
        ModelException failure = catchThrowableOfType(ModelException.class,
                () -> model(configuration, impatient).complete(ask(configuration, "Hello")));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2_500));
        assertThat(failure.reasonCode()).isEqualTo("timeout");
        assertThat(failure).hasMessageContaining("read timeout of 200 ms");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void tricklingAnswerIsCutOffByTheCallTimeout() {
        // The read timeout is far above the 100 ms between chunks, so that on a loaded machine only the call
        // timeout can end the call.
        HttpModelOptions impatient = new HttpModelOptions(Duration.ofSeconds(1), Duration.ofSeconds(5),
                Duration.ofMillis(600), 2, BASE_BACKOFF);
        ModelConfiguration configuration = configuration(server);
        server.enqueue(ok(answer("openai-plain")).newBuilder().throttleBody(16, 100, TimeUnit.MILLISECONDS)
                .build());

        ModelException failure = catchThrowableOfType(ModelException.class,
                () -> model(configuration, impatient).complete(ask(configuration, "Hello")));

        assertThat(failure.reasonCode()).isEqualTo("timeout");
        assertThat(failure).hasMessageContaining("call timeout of 600 ms");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "<html>502 Bad Gateway</html>                                           | not valid JSON",
        "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\"}                 | no \"choices\"",
        "{\"choices\":[]}                                                       | \"choices\" is empty",
        "{\"choices\":[]}}                                                      | at line 1, column 15",
        "{\"choices\":{}}                                                       | \"choices\" is an object, not an array",
        "{\"choices\":[{\"finish_reason\":\"stop\"}]}                           | no \"message\" object",
        "{\"choices\":[{\"message\":{\"content\":42}}]}                         | content is a number, not text",
        "{\"choices\":[{\"message\":{\"tool_calls\":[{\"function\":{\"arguments\":\"{}\"}}]}}]}"
                + "                                                             | tool_calls[0] has no function name",
        "{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"c\",\"function\":{\"name\":\"read_file\","
                + "\"arguments\":\"{\\\"path\\\":\"}}]}}]}                      | (\"read_file\") has arguments that are "
                + "not valid JSON",
        "{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"c\",\"function\":{\"name\":\"read_file\","
                + "\"arguments\":\"[1,2]\"}}]}}]}                               | arguments that are an array, not a JSON "
                + "object",
        "{\"choices\":[{\"message\":{\"tool_calls\":[{\"type\":\"code_interpreter\",\"function\":{\"name\":\"x\"}}]}}]}"
                + "                                                             | only \"function\" is understood",
        "{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"c\",\"function\":{\"name\":\"a\"}},"
                + "{\"id\":\"c\",\"function\":{\"name\":\"b\"}}]}}]}            | two tool calls share the id \"c\"",
        "{\"error\":{\"message\":\"context length exceeded\"}}                  | it carries an error, whose text is the provider's and is not shown",
    })
    void unusableAnswerIsMalformedSayingWhy(String body, String why) {
        server.enqueue(ok(body));

        ModelException failure = failureOf("Hello");

        assertThat(failure.reasonCode()).isEqualTo("malformed_response");
        assertThat(failure).hasMessageContaining(why);
    }

    @Test
    void emptyBodyIsMalformed() {
        server.enqueue(ok(""));

        ModelException failure = failureOf("Hello");

        assertThat(failure.reasonCode()).isEqualTo("malformed_response");
        assertThat(failure).hasMessageContaining("empty");
    }

    @Test
    void argumentsCutOffAtTheTokenLimitSaySo() {
        server.enqueue(ok("{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"c\",\"type\":\"function\","
                + "\"function\":{\"name\":\"write_file\",\"arguments\":\"{\\\"content\\\":\\\"a long\"}}]},"
                + "\"finish_reason\":\"length\"}]}"));

        assertThat(failureOf("Write it")).hasMessageContaining("cut off at the token limit");
    }

    @Test
    void environmentLookupThatThrowsStillEndsAsAModelException() {
        ModelConfiguration configuration = configuration(server, "OPENAI_API_KEY", null);
        Function<String, String> broken = name -> {
            throw new IllegalStateException("no environment here");
        };
        OpenAiCompatibleChatModel model = new OpenAiCompatibleChatModel(configuration, HTTP, OPTIONS, broken,
                waits::add);

        ModelException failure = catchThrowableOfType(ModelException.class,
                () -> model.complete(ask(configuration, "Hello")));

        assertThat(failure.reasonCode()).isEqualTo("client_failed");
        assertThat(failure).hasMessageContaining("IllegalStateException");
    }
}
