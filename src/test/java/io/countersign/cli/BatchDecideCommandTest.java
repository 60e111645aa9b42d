package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code decide --all-matching}: the summary first, a confirmation or --yes, then each card on its own. */
class BatchDecideCommandTest {
    @TempDir
    Path folder;
    CommandProcess countersign;

    @BeforeEach
    void demo() {
        countersign = new CommandProcess(folder, folder.resolve("countersign.db").toString());
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(
                folder.resolve("countersign.db")))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
        }
    }

    private List<String> waitingAgents() {
        CommandProcess.Result inbox = countersign.runHere("inbox");
        assertThat(inbox.exitCode()).as(inbox.err()).isZero();
        List<String> agents = new ArrayList<>();
        inbox.json().forEach(run -> agents.add(run.path("agent").asText()));
        return agents;
    }

    private static void assertOneLineError(CommandProcess.Result result, int exitCode, String contains) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines().toList()).as("stderr").singleElement().asString().contains(contains);
        assertThat(result.out()).isEmpty();
    }

    @Test
    void aScriptWithoutATerminalAndWithoutYesDecidesNothing() {
        List<String> before = waitingAgents();
        CommandProcess.Result script = countersign.run("decide", "--all-matching", "--agent", "release-notes-bot",
                "--approve-all");
        assertOneLineError(script, Cli.BAD_USAGE, "there is no terminal to confirm on: add --yes");
        assertThat(waitingAgents()).isEqualTo(before);
    }

    @Test
    void withYesEveryMatchingCardIsDecidedAndTheSummaryPrinted() {
        CommandProcess.Result decided = countersign.runHere("decide", "--all-matching", "--tool", "web_fetch",
                "--deny-all", "--reason", "No browsing today", "--yes");
        assertThat(decided.exitCode()).as(decided.err()).isZero();
        JsonNode plan = decided.json().get("plan");
        assertThat(plan.get("cards").asInt()).isEqualTo(1);
        assertThat(plan.get("groups").get(0).get("count").asInt()).isEqualTo(1);
        assertThat(plan.get("groups").get(0).get("summary").asText()).startsWith("web-research: web_fetch");
        assertThat(decided.json().get("result").get(0).get("answer").asText()).isEqualTo("done");
        assertThat(waitingAgents()).doesNotContain("web-research").contains("release-notes-bot");
    }

    @Test
    void theSummaryListsWhatARuleRefusedBeside() {
        CommandProcess.Result decided = countersign.runHere("decide", "--all-matching", "--agent",
                "release-notes-bot", "--deny-all", "--reason", "Not now", "--yes");
        assertThat(decided.exitCode()).as(decided.err()).isZero();
        JsonNode group = decided.json().get("plan").get("groups").get(0);
        assertThat(group.get("calls").get(0).asText()).startsWith("fs_write file: ");
        assertThat(group.get("refused").get(0).asText()).startsWith("fs_delete").endsWith("(workspace.boundary)");
        assertThat(decided.json().get("plan").get("refusedCalls").asInt()).isEqualTo(1);
    }

    @Test
    void aDenialWithoutAReasonAndAMatchOfNothingAreOneLineErrors() {
        assertOneLineError(countersign.runHere("decide", "--all-matching", "--agent", "release-notes-bot",
                "--deny-all", "--yes"), Cli.BAD_USAGE, "needs --reason TEXT");
        assertOneLineError(countersign.runHere("decide", "--all-matching", "--agent", "nobody", "--approve-all",
                "--yes"), Cli.REFUSED, "no approval card waits that matches --agent nobody");
        assertOneLineError(countersign.runHere("decide", "--all-matching", "--approve-all", "--yes"),
                Cli.BAD_USAGE, "--all-matching needs --agent NAME or --tool NAME");
        assertOneLineError(countersign.runHere("decide", "--approve-all"), Cli.BAD_USAGE,
                "decide needs RUN and --digest D");
        assertThat(waitingAgents()).contains("release-notes-bot", "web-research");
    }
}
