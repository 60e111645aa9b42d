package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code decide --edit}, {@code decide --allow}, {@code grants list} and {@code grants revoke}, as a script runs them. */
class GrantCommandsTest {
    @TempDir
    Path folder;
    CommandProcess countersign;
    String runId;
    String digest;

    @BeforeEach
    void theDemoWriteWaits() {
        Path file = folder.resolve("countersign.db");
        countersign = new CommandProcess(folder, file.toString());
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
        }
        CommandProcess.Result inbox = countersign.runHere("inbox");
        assertThat(inbox.exitCode()).as(inbox.err()).isZero();
        for (JsonNode run : inbox.json()) {
            if (run.path("agent").asText().equals("release-notes-bot")) {
                runId = run.path("runId").asText();
                digest = run.path("digest").asText();
            }
        }
        assertThat(runId).as(inbox.out()).isNotNull();
    }

    private CommandProcess.Result decide(String... options) {
        String[] args = new String[options.length + 6];
        args[0] = "--as";
        args[1] = "jonas";
        args[2] = "decide";
        args[3] = runId;
        args[4] = "--digest";
        args[5] = digest;
        System.arraycopy(options, 0, args, 6, options.length);
        return countersign.runHere(args);
    }

    private static void assertOneLineError(CommandProcess.Result result, int exitCode, String contains) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines().toList()).as("stderr").singleElement().asString().contains(contains);
        assertThat(result.out()).isEmpty();
    }

    @Test
    void badEditsAreOneLineErrorsAndDecideNothing() {
        assertOneLineError(decide("--edit", "5={\"path\": \"x.md\"}", "--approve-all"), 2,
                "--edit 5: call 5 of run " + runId + " does not wait for approval (waiting: 0)");
        assertOneLineError(decide("--edit", "0={path", "--approve-all"), 2, "--edit 0: not JSON");
        assertOneLineError(decide("--edit", "0=[1]", "--approve-all"), 2, "must be a JSON object");
        assertOneLineError(decide("--edit", "0={\"content\": 5}", "--approve-all"), 2,
                "call 0: the arguments of call 0 (fs_write) do not fit its schema");
        assertOneLineError(decide("--edit", "0={\"path\": \"../escape.md\"}", "--approve-all"), 3,
                "rule workspace.boundary refuses the call as edited");
        assertOneLineError(decide("--edit", "0={\"path\": \"a.md\"}", "--deny-all"), 2, "only a call that is"
                + " approved can be edited");
        assertOneLineError(decide("--approve-all", "--allow", "2h"), 2, "a grant lasts 1h, 8h, run, not \"2h\"");
        assertOneLineError(decide("--approve-all", "--allow-folder", "docs"), 2, "--allow-folder needs --allow");

        CommandProcess.Result show = countersign.runHere("show", runId);
        assertThat(show.json().path("status").asText()).isEqualTo("waiting_for_approval");
    }

    @Test
    void anEditedApprovalWithAllowMakesAGrantThatIsListedAndRevoked() {
        CommandProcess.Result decided = decide("--edit", "0={\"path\": \"docs/NOTES.md\"}", "--approve-all",
                "--allow", "8h");
        assertThat(decided.exitCode()).as(decided.err()).isZero();
        assertThat(decided.json().path("approved").asInt()).isEqualTo(1);
        assertThat(Files.exists(folder.resolve("demo-workspace/release-notes/docs/NOTES.md"))).isTrue();

        CommandProcess.Result list = countersign.runHere("grants", "list");
        assertThat(list.exitCode()).as(list.err()).isZero();
        JsonNode grant = list.json().path("grants").get(0);
        assertThat(grant.path("tool").asText()).isEqualTo("fs_write");
        assertThat(grant.path("grantedBy").asText()).isEqualTo("jonas");
        assertThat(grant.path("lasts").asText()).isEqualTo("8h");
        assertThat(grant.path("scope").asText()).isEqualTo("arguments");
        assertThat(grant.path("within").asText()).contains("docs/NOTES.md");
        String id = grant.path("id").asText();

        CommandProcess.Result revoked = countersign.runHere("--as", "jonas", "grants", "revoke", id);
        assertThat(revoked.exitCode()).as(revoked.err()).isZero();
        assertThat(revoked.json().path("result").asText()).isEqualTo("revoked");
        assertOneLineError(countersign.runHere("--as", "jonas", "grants", "revoke", id), 2,
                "no live grant has the id \"" + id + "\"");
        assertThat(countersign.runHere("grants", "list").json().path("grants")).isEmpty();
    }
}
