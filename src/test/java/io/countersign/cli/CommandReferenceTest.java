package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Role;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What each command of the reference prints and refuses, run through {@link Cli#run} in this process (the
 * process around the command is {@link CommandLineTest}'s subject).
 */
class CommandReferenceTest {
    @TempDir
    Path folder;
    CommandProcess countersign;

    @BeforeEach
    void freshStore() {
        countersign = new CommandProcess(folder, folder.resolve("countersign.db").toString());
    }

    private void demo() {
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(
                folder.resolve("countersign.db")))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
            runtime.store().users().add("sam", Set.of(Role.SUPERVISOR), runtime.localUser());
        }
    }

    private JsonNode waiting(String agent) {
        CommandProcess.Result inbox = countersign.runHere("inbox");
        assertThat(inbox.exitCode()).as(inbox.err()).isZero();
        for (JsonNode run : inbox.json()) {
            if (run.path("agent").asText().equals(agent)) {
                return run;
            }
        }
        throw new AssertionError("no waiting run of " + agent + " in " + inbox.out());
    }

    private static void assertOneLineError(CommandProcess.Result result, int exitCode, String contains) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines().toList()).as("stderr").singleElement().asString().contains(contains);
        assertThat(result.out()).isEmpty();
    }

    @Test
    void inboxShowsTheInputFormOfTheIntakeRun() {
        demo();

        JsonNode input = waiting("intake-form").path("input");

        assertThat(input.path("tool").asText()).isEqualTo("intake_form");
        assertThat(input.path("fields").findValuesAsText("name")).containsExactly("summary", "priority", "category");
    }

    @Test
    void typedInputCompletesTheIntakeRun() {
        demo();
        JsonNode card = waiting("intake-form");

        CommandProcess.Result submitted = countersign.runHere("input", card.path("runId").asText(), "--digest",
                card.path("digest").asText(), "--data", "{\"summary\": \"Stalls\", \"priority\": 1, \"category\": \"bug\"}");

        assertThat(submitted.exitCode()).as(submitted.err()).isZero();
        assertThat(submitted.json().path("status").asText()).isEqualTo("completed");
    }

    @Test
    void inputThatDoesNotFitTheFormIsBadUsageNamingTheField() {
        demo();
        JsonNode card = waiting("intake-form");

        assertOneLineError(countersign.runHere("input", card.path("runId").asText(), "--digest",
                card.path("digest").asText(), "--data", "{\"summary\": \"Stalls\", \"priority\": \"high\","
                        + " \"category\": \"bug\"}"), 2, "argument \"priority\": must be an integer");
    }

    @Test
    void adminChangesAToolAndTheChangeIsRecorded() {
        demo();

        CommandProcess.Result changed = countersign.runHere("tool", "set", "web_fetch", "--approval-bound", "false");

        assertThat(changed.exitCode()).as(changed.err()).isZero();
        assertThat(changed.json().path("changes").get(0).path("setting").asText()).isEqualTo("approval:web_fetch");
        assertThat(countersign.runHere("--as", "sam", "tools", "changes", "--limit", "1").json().get(0).path("newValue")
                .asText()).isEqualTo("false");
    }

    @Test
    void impossibleToolChangeIsRefusedSayingWhy() {
        demo();

        assertOneLineError(countersign.runHere("tool", "set", "fs_write", "--approval-bound", "false"), 3,
                "write tools always need approval");
    }

    @Test
    void userSetAddsAUserWithTheirRoles() {
        CommandProcess.Result added = countersign.runHere("user", "set", "lena", "--roles", "operator,supervisor");

        assertThat(added.exitCode()).as(added.err()).isZero();
        assertThat(added.json().path("result").asText()).isEqualTo("added");
        assertThat(added.json().path("roles").toString()).isEqualTo("[\"operator\",\"supervisor\"]");
    }

    @Test
    void eventsPageOnFromTheCursorTheFirstPagePrinted() {
        demo();
        countersign.runHere("decide", waiting("web-research").path("runId").asText(), "--digest",
                waiting("web-research").path("digest").asText(), "--deny-all");

        JsonNode first = countersign.runHere("events", "--limit", "1").json();
        JsonNode second = countersign.runHere("events", "--limit", "1", "--after", first.path("next").asText()).json();

        assertThat(first.path("events")).hasSize(1);
        assertThat(second.path("events")).hasSize(1);
        assertThat(second.path("events").get(0).path("id")).isNotEqualTo(first.path("events").get(0).path("id"));
    }

    @Test
    void everyMatchingEventStreamsAsCsv() {
        demo();

        CommandProcess.Result csv = countersign.runHere("--format", "csv", "events", "--all");

        assertThat(csv.exitCode()).as(csv.err()).isZero();
        List<String> lines = csv.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("id,time,type,reason,tool,rule,run,agent,actor,model,detail");
        assertThat(lines).anySatisfy(line -> assertThat(line).contains(",invocation_denied,outside_workspace,"));
    }

    @Test
    void agentsExportedFromOneStoreImportIntoAnother() throws Exception {
        demo();
        Path file = folder.resolve("agents.json");
        assertThat(countersign.runHere("agents", "export", file.toString()).exitCode()).isZero();
        CommandProcess other = new CommandProcess(folder, folder.resolve("other.db").toString());

        CommandProcess.Result imported = other.runHere("agents", "import", file.toString());

        assertThat(imported.exitCode()).as(imported.err()).isZero();
        assertThat(other.runHere("agents").json().findValuesAsText("name")).containsExactly("intake-form",
                "release-notes-bot", "web-research", "workspace-auditor");
        assertThat(Files.readString(file)).contains("\"models\"", "\"agents\"", "\"toolCallPolicies\"");
    }

    @Test
    void brokenAgentsFileIsBadUsageAndImportsNothing() throws Exception {
        Path file = Files.writeString(folder.resolve("agents.json"), "{\"agents\": [{\"name\": \"x\","
                + " \"model\": \"missing\"}]}");

        assertOneLineError(countersign.runHere("agents", "import", file.toString()), 2,
                "agents[0] \"x\": \"model\" names the model configuration \"missing\"");
        assertThat(countersign.runHere("agents").json()).isEmpty();
    }

    @Test
    void queuedRunWaitsForAWorker() {
        demo();
        CommandProcess.Result queued = countersign.runHere("run", "--agent", "workspace-auditor", "--prompt",
                "What is there?", "--unattended", "--queue");
        String runId = queued.json().path("runId").asText();
        assertThat(queued.json().path("status").asText()).isEqualTo("queued");

        CommandProcess.Result worker = countersign.runHere("worker", "--drain");

        assertThat(worker.exitCode()).as(worker.err()).isZero();
        assertThat(worker.json().path("firstStretches").asInt()).isEqualTo(1);
        assertThat(countersign.runHere("show", runId).json().path("status").asText()).isEqualTo("completed");
    }

    @Test
    void unknownRunIsBadUsage() {
        assertOneLineError(countersign.runHere("show", "no-such-run"), 2, "no run has the id \"no-such-run\"");
    }

    @Test
    void usersRemoveRemovesAUserAndRefusesTheLastAdminAndAnUnknownName() {
        demo();

        CommandProcess.Result removed = countersign.runHere("users", "remove", "sam");
        assertThat(removed.exitCode()).as(removed.err()).isZero();
        assertThat(removed.json().path("name").asText()).isEqualTo("sam");
        assertThat(removed.json().path("result").asText()).isEqualTo("removed");
        assertThat(countersign.runHere("users").json().findValuesAsText("name")).doesNotContain("sam");

        String admin = System.getProperty("user.name");
        assertOneLineError(countersign.runHere("users", "remove", admin), 3, "Cannot remove " + admin
                + ": they are the last admin; make another user admin first.");
        assertOneLineError(countersign.runHere("users", "remove", "sam"), 3,
                "no user is named \"sam\" (see: countersign users)");
        assertOneLineError(countersign.runHere("--as", "maria", "users", "remove", admin), 3, "");
    }

    @Test
    void versionNamesTheBuild() {
        CommandProcess.Result version = countersign.runHere("--version");

        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("countersign ").doesNotContain("${");
    }

    @Test
    void everyCommandOfTheReferenceHasHelp() {
        List<String> missing = new ArrayList<>();
        for (String command : List.of("agents", "run", "inbox", "show", "decide", "input", "settle", "events",
                "tools", "tool", "server", "servers", "users", "user", "demo", "worker")) {
            if (countersign.runHere(command, "--help").exitCode() != 0) {
                missing.add(command);
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void everyOptionAndParameterOfEveryCommandSaysWhatItIsInItsHelp() {
        List<String> undescribed = new ArrayList<>();
        try (CountersignCommand root = new CountersignCommand(Map.of())) {
            undescribed(new CommandLine(root), undescribed);
        }
        assertThat(undescribed).isEmpty();
    }

    private static void undescribed(CommandLine command, List<String> into) {
        CommandSpec spec = command.getCommandSpec();
        List<ArgSpec> arguments = new ArrayList<>(spec.options());
        arguments.addAll(spec.positionalParameters());
        for (ArgSpec argument : arguments) {
            if (String.join("", argument.description()).isBlank()) {
                into.add(spec.qualifiedName() + " " + (argument instanceof OptionSpec option ? option.longestName()
                        : argument.paramLabel()));
            }
        }
        command.getSubcommands().values().forEach(sub -> undescribed(sub, into));
    }

    @Test
    void theServerCommandsHelpDescribesTheThreeDeclarations() {
        assertThat(countersign.runHere("servers", "--help").out().replaceAll("\\s+", " "))
                .contains("approval-bound (every call waits for an operator), not approval-bound, or not declared"
                        + " (\"not declared: runs without approval\")");
        assertThat(countersign.runHere("servers", "add", "--help").out().replaceAll("\\s+", " "))
                .contains("true, every call of the server's tools waits for an operator's approval; false, they run"
                        + " without one. Required by add. A server without a declaration runs its tools without"
                        + " approval");
        assertThat(countersign.runHere("server", "set", "--help").out().replaceAll("\\s+", " "))
                .contains("A server not declared yet runs its tools without approval")
                .contains("--approval-bound=true|false The declaration: true, every call of the server's tools"
                        + " waits for an operator's approval; false, they run without one.");
    }

    @Test
    void perCallVerdictDeniesWithTheReasonTheModelReads() {
        demo();
        JsonNode card = waiting("release-notes-bot");
        String runId = card.path("runId").asText();

        CommandProcess.Result decided = countersign.runHere("decide", runId, "--digest",
                card.path("digest").asText(), "--verdict", "0=deny", "--reason", "Wrong file");

        assertThat(decided.json().path("denied").asInt()).isEqualTo(1);
        assertThat(countersign.runHere("show", runId).json().path("transcript").findValuesAsText("body"))
                .anySatisfy(body -> assertThat(body).contains("Wrong file"));
    }

    @Test
    void eventsCountByRule() {
        demo();

        JsonNode counts = countersign.runHere("events", "--count-by", "rule").json();

        assertThat(counts.toString()).isEqualTo("[{\"key\":\"workspace.boundary\",\"count\":1}]");
    }

    @Test
    void agentsExportToStandardOutput() {
        demo();

        JsonNode exported = countersign.runHere("agents", "export", "-").json();

        assertThat(exported.path("agents").findValuesAsText("name")).contains("release-notes-bot");
        assertThat(exported.path("models").get(0).path("provider").asText()).isEqualTo("scripted");
    }

    @Test
    void settlingARunWithNothingUnknownIsRefused() {
        demo();
        String runId = waiting("release-notes-bot").path("runId").asText();

        assertOneLineError(countersign.runHere("settle", runId, "--fail"), 3,
                "has no call whose outcome is unknown (it is waiting_for_approval)");
    }

    @Test
    void operatorsTableShowsOneLinePerWaitingRun() {
        demo();

        CommandProcess.Result table = countersign.runHere("--format", "table", "inbox");

        assertThat(table.out().lines().toList()).hasSize(4);
        assertThat(table.out().lines().findFirst().orElseThrow()).startsWith("runId").contains("digest");
    }
}
