package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.function.Function;
import java.util.stream.StreamSupport;

/**
 * The two cards an older build left waiting in the upgrade fixtures, a file write (release-notes-bot) and a typed
 * input (intake-form), each answered with this build on the digest the card shows: it is taken once, the run goes
 * on to its end once, and a second answer by someone else is refused as already given.
 */
final class WaitingCards {
    /** The rows answering both cards adds to the audit chain: each answer's decision and its event. */
    static final int CHAINED_ROWS = 4;

    private WaitingCards() {
    }

    /** {@code operator} answers both cards as maria; {@code other}, another person, answers them again. */
    static void assertEachIsAnsweredOnce(Function<String[], CommandProcess.Result> operator,
                                         Function<String[], CommandProcess.Result> other) {
        JsonNode inbox = operator.apply(new String[] {"inbox"}).json();
        assertThat(StreamSupport.stream(inbox.spliterator(), false).map(run -> run.path("agent").asText()))
                .containsExactlyInAnyOrder("release-notes-bot", "intake-form");
        JsonNode write = card(inbox, "release-notes-bot");
        JsonNode input = card(inbox, "intake-form");
        String[] decide = {"decide", write.path("runId").asText(), "--digest", write.path("digest").asText(),
                "--deny-all", "--reason", "Not this week"};
        String[] submit = {"input", input.path("runId").asText(), "--digest", input.path("digest").asText(),
                "--data", "{\"summary\":\"Sync stalls on large folders\",\"priority\":2,\"category\":\"bug\"}"};

        assertOnce(operator.apply(decide), other.apply(decide), "already decided");
        assertOnce(operator.apply(submit), other.apply(submit), "already");

        assertThat(operator.apply(new String[] {"inbox"}).json()).isEmpty();
        assertRanToItsEndOnce(operator, write.path("runId").asText(), "approval_decided");
        assertRanToItsEndOnce(operator, input.path("runId").asText(), "input_submitted");
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

    /** The run ended, with one event of the answer by maria: the answer was carried out once. */
    private static void assertRanToItsEndOnce(Function<String[], CommandProcess.Result> operator, String run,
                                              String answer) {
        JsonNode shown = operator.apply(new String[] {"show", run}).json();
        assertThat(shown.path("status").asText()).as(shown.toString()).isEqualTo("completed");
        assertThat(shown.path("card").isNull()).as(shown.toString()).isTrue();
        List<JsonNode> answers = StreamSupport.stream(shown.path("events").spliterator(), false)
                .filter(event -> event.path("title").asText().split(" · ")[0].equals(answer)).toList();
        assertThat(answers).as(shown.toString()).hasSize(1);
        assertThat(answers.get(0).path("body").asText()).startsWith("by maria");
    }
}
