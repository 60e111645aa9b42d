package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TrustZone;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rules}: the example rules written from the command line, acting on real runs of scripted agents over a
 * SQLite store; type errors and a rule that would refuse everything; what-if counts that match the replay.
 */
class RuleCommandsTest {
    @TempDir
    Path folder;
    CommandProcess countersign;
    Path workspace;

    @BeforeEach
    void agents() throws Exception {
        Path file = folder.resolve("countersign.db");
        countersign = new CommandProcess(folder, file.toString());
        workspace = Files.createDirectories(folder.resolve("ws"));
        Files.createDirectories(workspace.resolve("releases"));
        Files.createDirectories(workspace.resolve("drafts"));
        Files.writeString(workspace.resolve("releases/v1.zip"), "release");
        Files.writeString(workspace.resolve("drafts/old.md"), "draft");
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file))) {
            Actor admin = runtime.localUser();
            runtime.store().users().add("jonas", Set.of(Role.OPERATOR), admin);
            runtime.store().users().add("ana", Set.of(Role.OPERATOR), admin);
            agent(runtime, "cleaner", List.of("files"), turn(call("c1", "fs_delete", "{\"path\": \"releases/v1.zip\"}"),
                    call("c2", "fs_delete", "{\"path\": \"drafts/old.md\"}")));
            agent(runtime, "fetcher", List.of("web"),
                    turn(call("c1", "web_fetch", "{\"url\": \"https://elsewhere.example.com/x\"}")));
            agent(runtime, "writer", List.of("files"), turn(call("c1", "fs_write", "{\"path\": \"big.md\","
                    + " \"content\": \"" + "x".repeat(60_000) + "\"}")));
        }
    }

    private void agent(CountersignRuntime runtime, String name, List<String> groups, String turn) throws Exception {
        Path script = folder.resolve(name + ".json");
        Files.writeString(script, "{\"turns\": [" + turn + ", {\"content\": \"done\", \"usage\": {\"prompt\": 1,"
                + " \"completion\": 1}}]}");
        ModelConfiguration model = new ModelConfiguration(name + "-script", "scripted", name, script.toString(),
                TrustZone.LOCAL, null, null, null, null);
        runtime.store().configurations().saveModel(model);
        runtime.store().configurations().saveAgent(StoredAgentConfiguration.of(AgentConfiguration.of(name, model,
                groups).withWorkspace(workspace.toString()), "[]"));
    }

    private static String turn(String... calls) {
        return "{\"content\": \"working\", \"toolCalls\": [" + String.join(",", calls) + "], \"usage\": {\"prompt\":"
                + " 1, \"completion\": 1}}";
    }

    private static String call(String id, String name, String arguments) {
        return "{\"id\": \"" + id + "\", \"name\": \"" + name + "\", \"arguments\": " + arguments + "}";
    }

    private CommandProcess.Result ok(String... args) {
        CommandProcess.Result result = countersign.runHere(args);
        assertThat(result.exitCode()).as(result.err()).isZero();
        return result;
    }

    private JsonNode run(String agent) {
        String runId = ok("run", "--agent", agent, "--prompt", "go").json().path("runId").asText();
        return ok("show", runId).json();
    }

    private static void assertOneLineError(CommandProcess.Result result, int exitCode, String contains) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines().toList()).as("stderr").singleElement().asString().contains(contains);
    }

    @Test
    void theExampleRulesActOnRealRunsAndNameThemselves() {
        ok("rules", "add", "web.off-docs", "--when", "tool == 'web_fetch' && !args.url.startsWith("
                + "'https://docs.example.org/')", "--ask", "--note", "the docs site is ours");
        ok("tool", "set", "web_fetch", "--approval-bound", "false");
        ok("rules", "add", "releases.keep", "--when", "tool == 'fs_delete' && target.id.startsWith('releases/')",
                "--deny", "release_kept", "--explain", "Releases are kept; delete nothing under releases/.",
                "--explain-de", "Releases bleiben erhalten; lösche nichts unter releases/.");
        ok("rules", "add", "write.large", "--when", "tool == 'fs_write' && size(args.content) > 50000", "--ask",
                "--approvals", "2");

        JsonNode cleaner = run("cleaner");
        assertThat(cleaner.path("status").asText()).isEqualTo("waiting_for_approval");
        JsonNode card = cleaner.path("card");
        assertThat(card.path("refused")).singleElement().satisfies(refused -> {
            assertThat(refused.path("rule").asText()).isEqualTo("releases.keep");
            assertThat(refused.path("explanation").asText()).isEqualTo("Releases are kept; delete nothing under"
                    + " releases/.");
        });
        assertThat(card.path("pending")).singleElement().satisfies(pending ->
                assertThat(pending.path("arguments").path("path").asText()).isEqualTo("drafts/old.md"));
        JsonNode denied = ok("events", "--type", "invocation_denied", "--rule", "releases.keep").json();
        assertThat(denied.path("events")).hasSize(1);

        JsonNode fetcher = run("fetcher").path("card");
        assertThat(fetcher.path("pending")).singleElement().satisfies(pending ->
                assertThat(pending.path("askedBy").asText()).isEqualTo("web.off-docs"));

        JsonNode writer = run("writer");
        JsonNode writeCard = writer.path("card");
        assertThat(writeCard.path("pending").get(0).path("askedBy").asText()).isEqualTo("write.large");
        CommandProcess.Result first = ok("--as", "jonas", "decide", writer.path("runId").asText(), "--digest",
                writeCard.path("digest").asText(), "--approve-all");
        assertThat(first.json().path("required").asInt()).isEqualTo(2);
        assertThat(Files.exists(workspace.resolve("big.md"))).isFalse();
        ok("--as", "ana", "decide", writer.path("runId").asText(), "--digest", writeCard.path("digest").asText(),
                "--approve-all");
        assertThat(Files.exists(workspace.resolve("big.md"))).isTrue();
        assertThat(Files.exists(workspace.resolve("releases/v1.zip"))).isTrue();

        JsonNode list = ok("rules", "list").json();
        assertThat(list).extracting(rule -> rule.path("id").asText())
                .containsExactly("releases.keep", "web.off-docs", "write.large");
    }

    @Test
    void aRuleSavedWhileACardWaitsRefusesItsCallInTheDecidingProcess() {
        JsonNode cleaner = run("cleaner");
        assertThat(cleaner.path("card").path("pending")).hasSize(2);
        ok("rules", "add", "releases.keep", "--when", "tool == 'fs_delete' && target.id.startsWith('releases/')",
                "--deny", "release_kept", "--explain", "Releases are kept; delete nothing under releases/.");

        // a process of its own, which compiles the saved rule only when it judges the first approved call
        CommandProcess.Result decided = countersign.run("decide", cleaner.path("runId").asText(), "--digest",
                cleaner.path("card").path("digest").asText(), "--approve-all");
        assertThat(decided.exitCode()).as(decided.err()).isZero();
        assertThat(Files.exists(workspace.resolve("releases/v1.zip"))).isTrue();
        assertThat(Files.exists(workspace.resolve("drafts/old.md"))).isFalse();
        assertThat(ok("events", "--type", "invocation_denied", "--rule", "releases.keep").json().path("events"))
                .hasSize(1);
    }

    @Test
    void whatIfCountsMatchWhatTheRuleDoesOnReplayingTheCalls() {
        run("cleaner");
        run("cleaner");
        run("fetcher");
        JsonNode whatIf = ok("rules", "what-if", "--when", "tool == 'fs_delete' && target.id.startsWith("
                + "'releases/')", "--since", "1d").json();
        assertThat(whatIf.fieldNames().next()).isEqualTo("matched");
        assertThat(whatIf.path("matched").asInt()).isEqualTo(2);
        assertThat(whatIf.path("inScope").asInt()).isEqualTo(5);
        assertThat(whatIf.path("byAgent").path("cleaner").asInt()).isEqualTo(2);
        assertThat(whatIf.path("calls")).hasSize(2);

        ok("rules", "add", "releases.keep", "--when", "tool == 'fs_delete' && target.id.startsWith('releases/')",
                "--deny", "release_kept", "--explain", "Releases are kept.");
        run("cleaner");
        run("cleaner");
        run("fetcher");
        assertThat(ok("events", "--type", "invocation_denied", "--rule", "releases.keep").json().path("events"))
                .hasSize(whatIf.path("matched").asInt());

        String table = ok("--format", "table", "rules", "what-if", "releases.keep", "--since", "1d").out();
        assertThat(table).startsWith("4 of 10 recorded calls match");
    }

    @Test
    void badRulesAreOneLineErrorsWithTheirPlaceAndNothingIsSaved() {
        assertOneLineError(countersign.runHere("rules", "add", "typed", "--when", "tool == 1", "--deny", "no",
                "--explain", "No."), 2, "line 1, column 6: found no matching overload for '_==_'");
        assertOneLineError(countersign.runHere("rules", "add", "unknown", "--when", "tool == 'x' &&\n  size(argz) > 1",
                "--deny", "no", "--explain", "No."), 2, "line 2, column 8: undeclared reference to 'argz'; the"
                + " fields are tool, server, args");
        assertOneLineError(countersign.runHere("rules", "add", "Bad Id", "--when", "true", "--ask"), 2,
                "rule identifier \"Bad Id\" must match");
        assertOneLineError(countersign.runHere("rules", "add", "both", "--when", "true", "--ask", "--deny", "x",
                "--explain", "No."), 2, "say what the rule does");
        assertOneLineError(countersign.runHere("rules", "add", "asks.history", "--when", "size(history) > 3",
                "--ask"), 2, "an ask rule is decided before the card");
        assertOneLineError(countersign.runHere("rules", "add", "workspace.boundary", "--when", "true", "--deny",
                "x", "--explain", "No."), 3, "the identifier of a built-in rule");
        assertOneLineError(countersign.runHere("rules", "test", "--when", "args.path.startsWith(1)"), 2,
                "line 1, column 21");
        assertThat(ok("rules", "test", "--when", "size(history) > 2").json().path("asked").asText())
                .startsWith("when the call executes");
        assertThat(ok("rules", "list").json()).isEmpty();
    }

    @Test
    void aRuleThatWouldRefuseEveryCallOfTheWeekIsRefusedUnlessForced() throws Exception {
        run("cleaner");
        assertOneLineError(countersign.runHere("rules", "add", "everything", "--when", "true", "--deny", "stop",
                "--explain", "Nothing runs."), 3, "would have refused every one of the 2 calls recorded");
        assertThat(ok("rules", "list").json()).isEmpty();
        ok("rules", "add", "everything", "--when", "true", "--deny", "stop", "--explain", "Nothing runs.",
                "--force", "--note", "maintenance window");

        Path exported = folder.resolve("rules.json");
        ok("rules", "export", "--file", exported.toString());
        assertThat(Files.readString(exported)).contains("\"note\" : \"maintenance window\"");
        ok("rules", "disable", "everything");
        assertThat(ok("rules", "list").json().get(0).path("enabled").asBoolean()).isFalse();
        ok("rules", "remove", "everything", "--note", "window over");
        assertThat(ok("rules", "list").json()).isEmpty();
        JsonNode imported = ok("rules", "import", exported.toString(), "--force").json();
        assertThat(imported.get(0).path("result").asText()).isEqualTo("saved");
        assertThat(ok("rules", "list").json().get(0).path("enabled").asBoolean()).isTrue();
        assertThat(ok("audit", "verify").exitCode()).isZero();
    }

    @Test
    void testTriesARuleOnASampleCallAndSaysWhatItWouldDo() throws Exception {
        ok("rules", "add", "releases.keep", "--when", "tool == 'fs_delete' && target.id.startsWith('releases/')",
                "--deny", "release_kept", "--explain", "Releases are kept; delete nothing under releases/.");
        ok("rules", "add", "write.large", "--when", "tool == 'fs_write' && size(args.content) > 10", "--ask",
                "--approvals", "2", "--agents", "writer");
        Path release = Files.writeString(folder.resolve("release.json"), "{\"tool\": \"fs_delete\", \"args\":"
                + " {\"path\": \"releases/v1.zip\"}, \"target\": {\"kind\": \"file\", \"id\":"
                + " \"releases/v1.zip\"}}");
        JsonNode denied = ok("rules", "test", "releases.keep", "--call", release.toString()).json();
        assertThat(denied.path("outcome").asText()).isEqualTo("deny");
        assertThat(denied.path("reason").asText()).isEqualTo("release_kept");
        assertThat(denied.path("explanation").asText()).isEqualTo("Releases are kept; delete nothing under"
                + " releases/.");
        Path draft = Files.writeString(folder.resolve("draft.json"), "{\"tool\": \"fs_delete\", \"args\":"
                + " {\"path\": \"drafts/old.md\"}, \"target\": {\"kind\": \"file\", \"id\": \"drafts/old.md\"}}");
        assertThat(ok("rules", "test", "releases.keep", "--call", draft.toString()).json().path("outcome").asText())
                .isEqualTo("no match");

        Path write = Files.writeString(folder.resolve("write.json"), "{\"tool\": \"fs_write\", \"agent\":"
                + " \"writer\", \"args\": {\"path\": \"big.md\", \"content\": \"" + "x".repeat(20) + "\"}}");
        JsonNode asked = ok("rules", "test", "write.large", "--call", write.toString()).json();
        assertThat(asked.path("outcome").asText()).isEqualTo("ask");
        assertThat(asked.path("approvals").asInt()).isEqualTo(2);
        Files.writeString(write, Files.readString(write).replace("\"writer\"", "\"cleaner\""));
        assertThat(ok("rules", "test", "write.large", "--call", write.toString()).json().path("outcome").asText())
                .isEqualTo("not in scope");

        // a condition alone matches or not; one that cannot be evaluated for the call says why, as rule_failed
        Path shell = Files.writeString(folder.resolve("shell.json"), "{\"tool\": \"shell.run\", \"args\":"
                + " {\"command\": \"rm -rf build/\"}}");
        assertThat(ok("rules", "test", "--when", "args.command.matches('rm\\\\s+-rf')", "--call", shell.toString())
                .json().path("outcome").asText()).isEqualTo("matches");
        JsonNode failed = ok("rules", "test", "--when", "args.host == 'prod'", "--call", shell.toString()).json();
        assertThat(failed.path("outcome").asText()).isEqualTo("rule_failed");
        assertThat(failed.path("error").asText()).contains("host").doesNotContain("\n").doesNotContain("Exception");

        // the call read from standard input, in a process of its own
        CommandProcess.Running piped = countersign.start(Map.of(), "rules", "test", "releases.keep", "--call", "-");
        try (var input = piped.process().getOutputStream()) {
            input.write(Files.readAllBytes(release));
        }
        CommandProcess.Result fromInput = piped.await();
        assertThat(fromInput.exitCode()).as(fromInput.err()).isZero();
        assertThat(fromInput.json().path("outcome").asText()).isEqualTo("deny");
    }

    @Test
    void aSampleCallThatIsNotOneIsAOneLineErrorNamingWhatIsWrong() throws Exception {
        Path file = folder.resolve("call.json");
        Files.writeString(file, "{\"tool\": \"fs_delete\", \"arguments\": {}}");
        assertOneLineError(countersign.runHere("rules", "test", "--when", "true", "--call", file.toString()), 2,
                "the sample call has no field \"arguments\"; its fields are tool, args, agent, person");
        Files.writeString(file, "{\"args\": {}}");
        assertOneLineError(countersign.runHere("rules", "test", "--when", "true", "--call", file.toString()), 2,
                "the sample call needs \"tool\"");
        Files.writeString(file, "{\"tool\": ");
        assertOneLineError(countersign.runHere("rules", "test", "--when", "true", "--call", file.toString()), 2,
                "is not JSON");
        Files.writeString(file, "{\"tool\": \"fs_delete\", \"target\": {\"kind\": \"file\"}}");
        assertOneLineError(countersign.runHere("rules", "test", "--when", "true", "--call", file.toString()), 2,
                "the sample call's \"target\": a target of kind \"file\" needs a non-blank identifier");
        assertOneLineError(countersign.runHere("rules", "test", "--when", "true", "--call",
                folder.resolve("missing.json").toString()), 2, "could not read the sample call");
    }
}
