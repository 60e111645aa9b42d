package io.countersign.model;

import static io.countersign.model.WireAnswer.OPENAI;
import static io.countersign.model.WireAnswer.call;
import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolSpec;
import java.io.IOException;
import java.util.List;
import mockwebserver3.MockWebServer;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Remote tools are named {@code <server>.<tool>}, which OpenAI refuses as a function name; against a server that
 * checks names as the OpenAI API does, the model adapter offers them under accepted names and maps the calls back.
 */
class ProviderFunctionNamesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OkHttpClient HTTP = new OkHttpClient();

    private final StubTool readFile = new StubTool("read_file", ToolEffect.READ, DataClass.PUBLIC_CONTENT, "files",
            "path");
    private final StubTool remoteRead = new StubTool("files.read_text_file", ToolEffect.READ,
            DataClass.PUBLIC_CONTENT, "files", "path");
    private final StubTool remoteWrite = new StubTool("files.write_file", ToolEffect.WRITE,
            DataClass.PUBLIC_CONTENT, "files", "path");
    private final HttpLoopHarness harness = new HttpLoopHarness(readFile, remoteRead, remoteWrite);
    private final OpenAiFunctionNameRules openAi = new OpenAiFunctionNameRules();
    private MockWebServer server;
    private AgentConfiguration agent;

    @BeforeEach
    void setUp() throws IOException {
        server = Fixtures.startServer();
        server.setDispatcher(openAi);
        ModelConfiguration model = new ModelConfiguration("gpt", "openai", "gpt-4o-mini",
                server.url("/v1").toString(), TrustZone.EXTERNAL_EU, null, null, null, null);
        agent = AgentConfiguration.of("reader", model, List.of("files"));
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private RunOutcome ask(String prompt) {
        return harness.builder().build().runLoop(harness.request(agent, prompt));
    }

    @Test
    void theServerRefusesOurRemoteToolNamesAsTheyAreWithOpenAisAnswer() throws IOException {
        String body = "{\"model\": \"gpt-4o-mini\", \"messages\": [], \"tools\": [{\"type\": \"function\","
                + " \"function\": {\"name\": \"files.read_text_file\", \"parameters\": {}}}]}";

        try (Response response = HTTP.newCall(new Request.Builder().url(server.url("/v1/chat/completions"))
                .post(RequestBody.create(body, MediaType.get("application/json"))).build()).execute()) {
            assertThat(response.code()).isEqualTo(400);
            JsonNode error = JSON.readTree(response.body().string()).path("error");
            assertThat(error.path("message").asText()).isEqualTo("Invalid 'tools[0].function.name': string does not"
                    + " match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.");
            assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
            assertThat(error.path("param").asText()).isEqualTo("tools[0].function.name");
            assertThat(error.path("code").asText()).isEqualTo("invalid_value");
        }
        assertThat(openAi.accepted).isEmpty();
    }

    @Test
    void aRemoteToolIsOfferedUnderANameOpenAiAcceptsAndItsCallRunsTheRemoteTool() {
        openAi.enqueue(OPENAI.toolCalls(call("call_1", "files_read_text_file", "{\"path\": \"notes.txt\"}")));
        openAi.enqueue(OPENAI.text("The notes say hello."));

        RunOutcome outcome = ask("What do the notes say?");

        assertThat(outcome).isInstanceOf(RunOutcome.Completed.class);
        assertThat(remoteRead.executed).hasSize(1);
        assertThat(readFile.executed).isEmpty();
        assertThat(openAi.accepted).hasSize(2);
        assertThat(HttpLoopHarness.offeredTools(openAi.accepted.get(0)))
                .containsExactly("read_file", "files_read_text_file", "files_write_file");
        // the second round sends the earlier call back under the same accepted name
        assertThat(openAi.accepted.get(1).path("messages").findValuesAsText("name"))
                .contains("files_read_text_file").doesNotContain("files.read_text_file");
    }

    @Test
    void theTranscriptKeepsOurNameForTheCall() {
        openAi.enqueue(OPENAI.toolCalls(call("call_1", "files_read_text_file", "{\"path\": \"notes.txt\"}")));
        openAi.enqueue(OPENAI.text("The notes say hello."));

        RunOutcome.Completed done = (RunOutcome.Completed) ask("What do the notes say?");

        assertThat(done.transcript().stream().flatMap(message -> message.toolCalls().stream())
                .map(ToolCall::name)).containsExactly("files.read_text_file");
    }

    @Test
    void theApprovalCardNamesTheRemoteToolByOurName() {
        openAi.enqueue(OPENAI.toolCalls(call("call_1", "files_write_file", "{\"path\": \"notes.txt\"}")));

        RunOutcome outcome = ask("Write the notes.");

        assertThat(outcome).isInstanceOf(RunOutcome.WaitingForApproval.class);
        List<PendingCall> waiting = ((RunOutcome.WaitingForApproval) outcome).state().awaitingApproval();
        assertThat(waiting).extracting(pending -> pending.call().name()).containsExactly("files.write_file");
        assertThat(remoteWrite.executed).isEmpty();
    }

    @Test
    void aToolChoiceNamingARemoteToolIsSentUnderItsAcceptedName() throws Exception {
        openAi.enqueue(OPENAI.text("Nothing to read."));
        OpenAiCompatibleChatModel model = new OpenAiCompatibleChatModel(agent.model(), HTTP,
                HttpLoopHarness.FAST_RETRIES);

        model.complete(new ChatRequest(agent.model(), List.of(ChatMessage.user("Read.")),
                List.of(ToolSpec.of(remoteRead)), "files.read_text_file"));

        assertThat(openAi.accepted.get(0).path("tool_choice").path("function").path("name").asText())
                .isEqualTo("files_read_text_file");
    }
}
