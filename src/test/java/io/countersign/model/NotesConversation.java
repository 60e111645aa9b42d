package io.countersign.model;

import static io.countersign.model.WireAnswer.OPENAI;
import static io.countersign.model.WireAnswer.call;
import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.countersign.engine.TestDecisions;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.intent.ToolCallPolicy;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ToolEffect;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import mockwebserver3.MockWebServer;
import okio.ByteString;

/**
 * One scripted conversation over HTTP that touches every part of a round: parallel calls, a tool kept out by its
 * trust zone and one outside the agent's groups, an approval pause resumed from its JSON in a fresh loop, a refused
 * call, and a closing answer. {@link #record} runs it and captures what went over the wire and what was written.
 */
final class NotesConversation {
    /** Where the recording of this conversation by a loop without intent policies is kept. */
    static final String GOLDEN = "byte-identity/";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final StubTool list = new StubTool("notes_list", ToolEffect.READ, DataClass.PUBLIC_CONTENT, "notes",
            "folder");
    private final StubTool read = new StubTool("notes_read", ToolEffect.READ, DataClass.EDITOR_CONTENT, "notes",
            "path");
    private final StubTool write = new StubTool("notes_write", ToolEffect.WRITE, DataClass.EDITOR_CONTENT, "notes",
            "path", "content");
    // Beyond the ceiling of a privately hosted model: refused by the trust-zone gate.
    private final StubTool vault = new StubTool("vault_read", ToolEffect.READ, DataClass.SECRET_ADJACENT, "notes",
            "key");
    // Outside the agent's groups: refused by the configuration gate.
    private final StubTool mail = new StubTool("mail_send", ToolEffect.WRITE, DataClass.PUBLIC_CONTENT, "mail",
            "to", "body");
    private final HttpLoopHarness harness = new HttpLoopHarness(list, read, write, vault, mail);

    /** The agent's model: a privately hosted vLLM server at the given test server. */
    static ModelConfiguration teamModel(MockWebServer server) {
        return new ModelConfiguration("team-llm", "vllm", "qwen2.5-32b-instruct", server.url("/v1").toString(),
                TrustZone.PRIVATE_HOSTED, 0.2, 512, null, null);
    }

    /**
     * Runs the conversation against the server and records it.
     *
     * @param policies the agent's intent policies
     * @param seams    adds whatever else the loop is built with
     */
    Recording record(MockWebServer server, List<ToolCallPolicy> policies, UnaryOperator<ToolLoop.Builder> seams) {
        server.enqueue(OPENAI.toolCalls(call("call_list", "notes_list", "{\"folder\":\"meetings\"}"),
                call("call_mon", "notes_read", "{\"path\":\"meetings/monday.md\"}")));
        server.enqueue(OPENAI.toolCalls(call("call_tue", "notes_read", "{\"path\":\"meetings/tuesday.md\"}"),
                call("call_sum", "notes_write",
                        "{\"path\":\"summary.md\",\"content\":\"Monday: budget. Tuesday: hiring.\"}")));
        server.enqueue(OPENAI.toolCalls(call("call_mail", "mail_send",
                "{\"to\":\"team@example.com\",\"body\":\"The summary is up.\"}")));
        server.enqueue(OPENAI.text("The summary is in summary.md; I could not send the mail."));

        AgentConfiguration agent = new AgentConfiguration("scribe", "You keep the team's meeting notes.",
                teamModel(server), List.of("notes"), List.of(), null, policies, AgentConfiguration.DEFAULT_MAX_ROUNDS,
                false);
        RunOutcome paused = seams.apply(harness.builder()).build()
                .runLoop(harness.request(agent, "Summarise this week's meetings into summary.md."));
        if (!(paused instanceof RunOutcome.WaitingForApproval waiting)) {
            throw new AssertionError("the conversation should pause for the write, but ended " + paused.status());
        }
        // As after a restart: the state goes through its JSON and a fresh loop resumes it.
        PausedState state = PausedStateCodec.fromJson(PausedStateCodec.toJson(waiting.state()));
        RunOutcome outcome = seams.apply(harness.builder()).build()
                .resumeApproval(state, agent, TestDecisions.approveAll(state, harness.jonas));
        if (!(outcome instanceof RunOutcome.Completed)) {
            throw new AssertionError("the resumed conversation should complete, but ended " + outcome.status());
        }
        List<ByteString> requests = new ArrayList<>();
        for (int i = server.getRequestCount(); i > 0; i--) {
            requests.add(HttpLoopHarness.next(server).getBody());
        }
        return new Recording(requests, reread(PausedStateCodec.transcriptToTree(outcome.transcript())),
                reread(eventsTree(harness.events)));
    }

    private static ArrayNode eventsTree(List<GovernanceEvent> events) {
        ArrayNode tree = JSON.createArrayNode();
        for (GovernanceEvent event : events) {
            tree.addObject().put("id", event.id()).put("time", event.time().toString())
                    .put("type", event.type().code()).put("reasonCode", event.reasonCode())
                    .put("toolName", event.toolName()).put("ruleId", event.ruleId()).put("runId", event.runId())
                    .put("agentConfiguration", event.agentConfiguration()).put("actor", event.actor())
                    .put("model", event.model()).put("detail", event.detail());
        }
        return tree;
    }

    // Through text and back, so that a tree built in memory compares equal to one read from a file.
    private static JsonNode reread(JsonNode tree) {
        try {
            return JSON.readTree(tree.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What one run of the conversation sent and wrote.
     *
     * @param requests   the request bodies, byte for byte, in the order they were sent
     * @param transcript the final transcript as the paused-state JSON writes it
     * @param events     the governance events, every field
     */
    record Recording(List<ByteString> requests, JsonNode transcript, JsonNode events) {

        /** The recording kept under {@code src/test/resources} at the given folder. */
        static Recording load(String folder) {
            List<ByteString> requests = new ArrayList<>();
            for (int i = 1; NotesConversation.class.getResource(folder + request(i)) != null; i++) {
                requests.add(ByteString.of(resource(folder + request(i))));
            }
            try {
                return new Recording(requests, JSON.readTree(resource(folder + "transcript.json")),
                        JSON.readTree(resource(folder + "events.json")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * Fails unless this recording sent exactly the expected request bodies, byte for byte, showing the first
         * that differs as text.
         */
        void assertSameRequestsAs(Recording expected) {
            assertThat(requests).as("requests sent").hasSameSizeAs(expected.requests());
            for (int i = 0; i < requests.size(); i++) {
                assertThat(requests.get(i).utf8()).as("body of request %d", i + 1)
                        .isEqualTo(expected.requests().get(i).utf8());
                assertThat(requests.get(i)).as("bytes of request %d", i + 1).isEqualTo(expected.requests().get(i));
            }
        }

        /** Writes the recording in the layout {@link #load} reads, for inspection or to become a golden copy. */
        void writeTo(Path folder) {
            try {
                Files.createDirectories(folder);
                for (int i = 0; i < requests.size(); i++) {
                    Files.write(folder.resolve(request(i + 1)), requests.get(i).toByteArray());
                }
                Files.writeString(folder.resolve("transcript.json"), JSON.writeValueAsString(transcript) + "\n");
                Files.writeString(folder.resolve("events.json"), JSON.writeValueAsString(events) + "\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static String request(int number) {
            return "request-" + number + ".json";
        }

        private static byte[] resource(String name) {
            try (InputStream in = NotesConversation.class.getResourceAsStream(name)) {
                if (in == null) {
                    throw new IllegalStateException("no recording " + name + " next to " + NotesConversation.class);
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
