package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.Role;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.agent.DeadlineRule;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentServiceTest {
    @TempDir
    Path folder;
    DemoStore demo;
    AgentService agents;

    @BeforeEach
    void open() {
        demo = new DemoStore(folder);
        agents = demo.runtime.agents();
    }

    @AfterEach
    void close() {
        demo.close();
    }

    private static String file(String models, String agents) {
        return "{\"models\": [" + models + "], \"agents\": [" + agents + "]}";
    }

    private static final String SCRIPTED = "{\"name\": \"replay\", \"provider\": \"scripted\", \"model\": \"replay\","
            + " \"endpoint\": \"classpath:/demo/scripts/workspace-auditor.json\", \"trustZone\": \"local\"}";

    @Test
    void exportedFileImportsIntoAnotherStoreAsTheSameConfigurations() throws Exception {
        Path exported = folder.resolve("agents.json");
        AgentImport written = agents.exportFile(demo.admin, exported);
        Path other = Files.createDirectory(folder.resolve("other"));

        try (CountersignRuntime second = CountersignRuntime.open(new StoreLocation.SqliteFile(
                other.resolve("countersign.db")))) {
            AgentImport imported = second.agents().importFile(second.localUser(), exported);

            assertThat(imported).isEqualTo(written);
            assertThat(second.store().configurations().listAgents())
                    .isEqualTo(demo.runtime.store().configurations().listAgents());
            assertThat(second.store().configurations().listModels())
                    .isEqualTo(demo.runtime.store().configurations().listModels());
        }
        assertThat(written.agents()).containsExactly("intake-form", "release-notes-bot", "web-research",
                "workspace-auditor");
    }

    @Test
    void agentMayNameAModelOfTheSameFileAndItsPoliciesToo() {
        String json = file(SCRIPTED + ", " + SCRIPTED.replace("\"replay\"", "\"cheap\""),
                "{\"name\": \"triage\", \"model\": \"replay\", \"toolGroups\": [\"files\"], \"fourEyes\": true,"
                        + " \"toolCallPolicies\": [{\"name\": \"cheap-lists\", \"match\": {\"words\": [\"list\"]},"
                        + " \"model\": \"cheap\"}]}");

        assertThat(agents.importJson(demo.admin, json))
                .isEqualTo(new AgentImport(List.of("replay", "cheap"), List.of("triage")));
        StoredAgentConfiguration saved = demo.runtime.store().configurations().findAgent("triage").orElseThrow();
        assertThat(saved.fourEyes()).isTrue();
        assertThat(saved.maxRounds()).isEqualTo(12);
        assertThat(saved.toolCallPolicies()).contains("cheap-lists");
    }

    @Test
    void deadlinesAreImportedAndExportedBack() throws Exception {
        String json = file(SCRIPTED, "{\"name\": \"triage\", \"model\": \"replay\", \"toolGroups\": [\"files\"],"
                + " \"decisionDeadline\": \"90s\", \"onDeadline\": \"escalate\", \"escalationRole\": \"operator\","
                + " \"toolDeadlines\": {\"fs_write\": {\"decisionDeadline\": \"5m\", \"onDeadline\": \"cancel\"},"
                + " \"intake_form\": {\"decisionDeadline\": \"8h\", \"onDeadline\": \"cancel\"}}}");
        agents.importJson(demo.admin, json);

        DecisionDeadlines saved = demo.runtime.store().configurations().findAgent("triage").orElseThrow().deadlines();
        assertThat(saved.agentRule()).isEqualTo(new DeadlineRule(Duration.ofSeconds(90), DeadlineAction.ESCALATE));
        assertThat(saved.escalationRole()).isEqualTo(Role.OPERATOR);
        assertThat(saved.toolRules()).containsEntry("fs_write",
                new DeadlineRule(Duration.ofMinutes(5), DeadlineAction.CANCEL));
        Path exported = folder.resolve("agents.json");
        agents.exportFile(demo.admin, exported);
        JsonNode triage = StreamSupport.stream(new ObjectMapper().readTree(exported.toFile()).get("agents")
                .spliterator(), false).filter(agent -> agent.get("name").asText().equals("triage")).findFirst()
                .orElseThrow();
        assertThat(triage.get("decisionDeadline").asText()).isEqualTo("90s");
        assertThat(triage.get("onDeadline").asText()).isEqualTo("escalate");
        assertThat(triage.get("escalationRole").asText()).isEqualTo("operator");
        assertThat(triage.get("toolDeadlines").toString()).isEqualTo("{\"fs_write\":{\"decisionDeadline\":\"5m\","
                + "\"onDeadline\":\"cancel\"},\"intake_form\":{\"decisionDeadline\":\"8h\",\"onDeadline\":\"cancel\"}}");
    }

    @Test
    void badDeadlinesNameTheFieldAndTheValue() {
        String json = file(SCRIPTED, "{\"name\": \"a\", \"model\": \"replay\", \"decisionDeadline\": \"soon\"},"
                + " {\"name\": \"b\", \"model\": \"replay\", \"decisionDeadline\": \"1h\", \"onDeadline\": \"wait\"},"
                + " {\"name\": \"c\", \"model\": \"replay\", \"toolDeadlines\": {\"intake_form\":"
                + " {\"decisionDeadline\": \"1h\", \"onDeadline\": \"deny\"}}}");

        assertThatThrownBy(() -> agents.importJson(demo.admin, json))
                .isInstanceOfSatisfying(ConfigurationException.class, e -> assertThat(e.problems()).containsExactly(
                        "agents[0] \"a\": decisionDeadline must be a whole number of seconds, minutes or hours such"
                                + " as 90s, 30m or 8h, got \"soon\"",
                        "agents[1] \"b\": onDeadline must be one of deny, cancel, escalate, got \"wait\"",
                        "agents[2] \"c\": \"toolDeadlines\" \"intake_form\" asks for typed input, whose deadline can"
                                + " only cancel the run: onDeadline must be \"cancel\", got \"deny\""));
    }

    @Test
    void aDeadlineEscalatesToPeopleNotToWorkers() {
        String json = file(SCRIPTED, "{\"name\": \"w\", \"model\": \"replay\", \"decisionDeadline\": \"1h\","
                + " \"onDeadline\": \"escalate\", \"escalationRole\": \"worker\"}");

        assertThatThrownBy(() -> agents.importJson(demo.admin, json))
                .isInstanceOfSatisfying(ConfigurationException.class, e -> assertThat(e.problems()).containsExactly(
                        "agents[0] \"w\": escalationRole must be one of operator, supervisor, admin, got \"worker\""));
    }

    @Test
    void everyWrongEntryAndFieldIsNamedAndNothingIsSaved() {
        String json = file(SCRIPTED + ", {\"name\": \"eu\", \"provider\": \"openai\", \"model\": \"gpt\","
                        + " \"trustZone\": \"eu\", \"temperature\": 3}",
                "{\"name\": \"triage\", \"model\": \"nowhere\", \"toolGroups\": [\"fles\"], \"maxRounds\": 0},"
                        + " {\"name\": \"ok\", \"model\": \"replay\", \"colour\": \"blue\"}");

        assertThatThrownBy(() -> agents.importJson(demo.admin, json))
                .isInstanceOfSatisfying(ConfigurationException.class, e -> assertThat(e.problems()).containsExactly(
                        "models[1] \"eu\": \"trustZone\" must be one of local, privateHosted, externalEu,"
                                + " externalGlobal, got \"eu\"",
                        "models[1] \"eu\": \"temperature\" must be a number from 0.0 to 2.0, got 3",
                        "agents[0] \"triage\": \"model\" names the model configuration \"nowhere\", which is"
                                + " neither in this file nor in the store",
                        "agents[0] \"triage\": \"toolGroups[0]\" \"fles\" is not a known tool group; known: files,"
                                + " interaction, web",
                        "agents[0] \"triage\": \"maxRounds\" must be a whole number of at least 1, got 0",
                        "agents[1] \"ok\": unknown field \"colour\"; expected one of name, systemPrompt, model,"
                                + " toolGroups, allowedTools, workspace, toolCallPolicies, maxRounds, fourEyes,"
                                + " decisionDeadline, onDeadline, escalationRole, toolDeadlines, approvals, toolApprovals"))
                .hasMessageStartingWith("the configuration: 6 problems: ")
                .hasMessageEndingWith("; nothing was imported");
        assertThat(demo.runtime.store().configurations().findModel("replay")).isEmpty();
    }

    @Test
    void policyProblemNamesTheAgentThePolicyAndTheField() {
        String json = file(SCRIPTED, "{\"name\": \"triage\", \"model\": \"replay\", \"toolCallPolicies\":"
                + " [{\"name\": \"to-fetch\", \"match\": {\"regex\": \"(\"}, \"redirectTo\": \"web_fetch\"}]}");

        assertThatThrownBy(() -> agents.importJson(demo.admin, json))
                .isInstanceOfSatisfying(ConfigurationException.class, e -> assertThat(e.problems()).singleElement()
                        .asString().startsWith("agents[0] \"triage\": \"toolCallPolicies\" tool call policy [0]"
                                + " \"to-fetch\": \"match.regex\" is not a valid regular expression"));
    }

    @Test
    void policyRedirectingToAnUnregisteredToolIsRefused() {
        String json = file(SCRIPTED, "{\"name\": \"triage\", \"model\": \"replay\", \"toolCallPolicies\":"
                + " [{\"name\": \"to-shell\", \"match\": {\"words\": [\"run\"]}, \"redirectTo\": \"shell_run\"}]}");

        assertThatThrownBy(() -> agents.importJson(demo.admin, json)).hasMessageContaining("agents[0] \"triage\":"
                + " \"toolCallPolicies\" policy \"to-shell\" names a tool that cannot be offered: \"shell_run\" is not"
                + " a known tool; known: ");
    }

    /** A record whose command does not exist: nothing here may depend on connecting it. */
    private void recordServer(String name, String group) {
        demo.runtime.store().servers().add(McpServerRecord.stdio(name, folder.resolve("no-such-server").toString(),
                List.of()).withGroup(group), demo.admin);
    }

    @Test
    void anAgentMayNameARecordedServersGroupAndToolsWithoutItBeingConnected() {
        recordServer("every", "every");
        String json = file(SCRIPTED, "{\"name\": \"echoer\", \"model\": \"replay\", \"toolGroups\": [\"every\"],"
                + " \"allowedTools\": [\"every.echo\", \"every.get-sum\"], \"toolCallPolicies\": [{\"name\":"
                + " \"sums\", \"match\": {\"words\": [\"add\"]}, \"whenTool\": \"every.echo\", \"redirectTo\":"
                + " \"every.get-sum\"}]}");

        assertThat(agents.importJson(demo.admin, json).agents()).containsExactly("echoer");
        StoredAgentConfiguration saved = demo.runtime.store().configurations().findAgent("echoer").orElseThrow();
        assertThat(saved.toolGroups()).containsExactly("every");
        assertThat(saved.allowedTools()).containsExactly("every.echo", "every.get-sum");
    }

    @Test
    void aToolOfAServerNoRecordHasIsRefusedNamingTheRecordedServers() {
        recordServer("every", "demo-tools");
        String json = file(SCRIPTED, "{\"name\": \"echoer\", \"model\": \"replay\", \"toolGroups\":"
                + " [\"demo-tools\", \"every\"], \"allowedTools\": [\"nope.echo\", \"every.\", \"echo\"]}");

        assertThatThrownBy(() -> agents.importJson(demo.admin, json))
                .isInstanceOfSatisfying(ConfigurationException.class, e -> assertThat(e.problems()).containsExactly(
                        "agents[0] \"echoer\": \"toolGroups[1]\" \"every\" is not a known tool group; known:"
                                + " demo-tools, files, interaction, web",
                        "agents[0] \"echoer\": \"allowedTools[0]\" \"nope.echo\" names a tool of server \"nope\", but"
                                + " no server record has that name; servers: every",
                        "agents[0] \"echoer\": \"allowedTools[1]\" \"every.\" cannot name a tool of server"
                                + " \"every\": write every.<tool>, the tool's name in [a-z0-9_.-], at most 64 characters"
                                + " in all",
                        "agents[0] \"echoer\": \"allowedTools[2]\" \"echo\" is not a known tool; known: ask_user,"
                                + " fs_delete, fs_list, fs_read, fs_write, intake_form, web_fetch; or a tool of a"
                                + " recorded server as <server>.<tool>, servers: every"));
    }

    @Test
    void modelNoProviderCanServeIsRefusedWithTheProvidersReason() {
        String json = file("{\"name\": \"gpt\", \"provider\": \"openai\", \"model\": \"gpt-4o\","
                + " \"trustZone\": \"externalGlobal\"}", "");

        assertThatThrownBy(() -> agents.importJson(demo.admin, json)).hasMessageContaining("models[0] \"gpt\":"
                + " model configuration \"gpt\" (provider openai) needs an endpoint");
    }

    @Test
    void agentMayNameAModelAlreadyInTheStore() {
        String json = file("", "{\"name\": \"second-auditor\", \"model\": \"workspace-auditor-script\"}");

        assertThat(agents.importJson(demo.admin, json).agents()).containsExactly("second-auditor");
    }

    @Test
    void fileThatIsNotJsonSaysWhere() {
        assertThatThrownBy(() -> agents.importJson(demo.admin, "{\"models\": [}"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("the configuration: not valid JSON: ")
                .hasMessageContaining("(line 1, column 13)");
    }

    @Test
    void missingFileIsNamed() {
        assertThatThrownBy(() -> agents.importFile(demo.admin, folder.resolve("nope.json")))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot read " + folder.resolve("nope.json") + ": no such file or folder");
    }
}
