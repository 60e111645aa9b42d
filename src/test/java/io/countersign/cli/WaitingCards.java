package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.StreamSupport;

/**
 * The two cards an older build left waiting in the upgrade fixtures, a file write (release-notes-bot) and a typed
 * input (intake-form), each answered with this build on the digest the old build showed: the answer is taken once
 * (a second one, by someone else, is refused as already given), the call it lets run runs once (the file holds
 * what the card showed), and the run goes on to its end.
 */
final class WaitingCards {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The rows answering both cards adds to the audit chain: each answer's decision and its event. */
    static final int CHAINED_ROWS = 4;

    private WaitingCards() {
    }

    /**
     * {@code operator} answers both cards as maria, approving the file write; {@code admin}, another person,
     * answers them again. The old build's demo workspace was on the machine that made the fixture: the admin first
     * moves the agent's workspace to {@code workspace}, with the notes the card's preview was made from.
     */
    static void assertEachIsAnsweredOnce(Function<String[], CommandProcess.Result> operator,
                                         Function<String[], CommandProcess.Result> admin, Path workspace)
            throws IOException {
        moveTheWorkspace(admin, workspace);
        JsonNode inbox = operator.apply(new String[] {"inbox"}).json();
        assertThat(StreamSupport.stream(inbox.spliterator(), false).map(run -> run.path("agent").asText()))
                .containsExactlyInAnyOrder("release-notes-bot", "intake-form");
        JsonNode write = card(inbox, "release-notes-bot");
        JsonNode input = card(inbox, "intake-form");
        String[] decide = {"decide", write.path("runId").asText(), "--digest", write.path("digest").asText(),
                "--approve-all"};
        String[] submit = {"input", input.path("runId").asText(), "--digest", input.path("digest").asText(),
                "--data", "{\"summary\":\"Sync stalls on large folders\",\"priority\":2,\"category\":\"bug\"}"};

        assertOnce(operator.apply(decide), admin.apply(decide), "already decided");
        assertOnce(operator.apply(submit), admin.apply(submit), "already");

        assertThat(operator.apply(new String[] {"inbox"}).json()).isEmpty();
        assertRanToItsEndOnce(operator, write.path("runId").asText(), "approval_decided", "fs_write");
        assertThat(Files.readString(workspace.resolve("NOTES.md")))
                .isEqualTo(write.path("pending").get(0).path("arguments").path("content").asText());
        assertRanToItsEndOnce(operator, input.path("runId").asText(), "input_submitted", "intake_form");
    }

    /** Moves release-notes-bot's workspace to {@code workspace}, which holds the notes as the demo left them. */
    private static void moveTheWorkspace(Function<String[], CommandProcess.Result> admin, Path workspace)
            throws IOException {
        Files.createDirectories(workspace);
        Files.writeString(workspace.resolve("NOTES.md"), "# Release notes\n\n## 2.3\n\n- Conflicts are shown in the"
                + " sidebar.\n\n## 2.2\n\n- First public release.\n");
        Path agents = workspace.resolveSibling("agents.json");
        CommandProcess.Result exported = admin.apply(new String[] {"agents", "export", agents.toString()});
        assertThat(exported.exitCode()).as(exported.err()).isZero();
        ObjectNode configurations = (ObjectNode) JSON.readTree(agents.toFile());
        configurations.path("agents").forEach(agent -> {
            if (agent.path("name").asText().equals("release-notes-bot")) {
                ((ObjectNode) agent).put("workspace", workspace.toString());
            }
        });
        JSON.writeValue(agents.toFile(), configurations);
        CommandProcess.Result imported = admin.apply(new String[] {"agents", "import", agents.toString()});
        assertThat(imported.exitCode()).as(imported.err()).isZero();
    }

    private static JsonNode card(JsonNode inbox, String agent) {
        return StreamSupport.stream(inbox.spliterator(), false)
                .filter(run -> run.path("agent").asText().equals(agent)).findFirst().orElseThrow();
    }

    private static void assertOnce(CommandProcess.Result answered, CommandProcess.Result again, String refusal) {
        assertThat(answered.exitCode()).as(answered.err()).isZero();
        assertThat(again.exitCode()).as(again.out() + again.err()).isEqualTo(Cli.REFUSED);
        assertThat(again.err()).contains(refusal, "maria");
    }

    /** The run ended, with one event of the answer by maria, and the call answered ran once. */
    private static void assertRanToItsEndOnce(Function<String[], CommandProcess.Result> operator, String run,
                                              String answer, String tool) {
        JsonNode shown = operator.apply(new String[] {"show", run}).json();
        assertThat(shown.path("status").asText()).as(shown.toString()).isEqualTo("completed");
        assertThat(shown.path("card").isNull()).as(shown.toString()).isTrue();
        List<JsonNode> answers = StreamSupport.stream(shown.path("events").spliterator(), false)
                .filter(event -> event.path("title").asText().split(" · ")[0].equals(answer)).toList();
        assertThat(answers).as(shown.toString()).hasSize(1);
        assertThat(answers.get(0).path("body").asText()).startsWith("by maria");
        assertThat(StreamSupport.stream(shown.path("history").path("calls").spliterator(), false)
                .filter(call -> call.path("tool").asText().equals(tool)).map(call -> call.path("outcome").asText()))
                .as(shown.toString()).containsExactly("ok");
    }
}
