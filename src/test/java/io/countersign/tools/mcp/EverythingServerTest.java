package io.countersign.tools.mcp;

import static io.countersign.tools.mcp.ScriptedAgent.answer;
import static io.countersign.tools.mcp.ScriptedAgent.call;
import static io.countersign.tools.mcp.ScriptedAgent.calls;
import static io.countersign.tools.mcp.ScriptedAgent.resultOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import io.countersign.engine.access.ToolApprovalRule;
import io.countersign.engine.access.UnattendedToolFilter;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.port.ToolSettingsSource;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.service.AskedInputs;
import io.countersign.tools.NetworkntSchemaValidator;
import java.util.Locale;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.ImportReport;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The reference "everything" server over stdio: many tools, a long-running one, and a tool list that changes. */
class EverythingServerTest {
    private static final String SERVER = "everything";

    private final ToolRegistry registry = new ToolRegistry();
    private final List<ImportReport> imports = new CopyOnWriteArrayList<>();
    private McpToolSource source;

    @AfterEach
    void disconnect() {
        if (source != null) {
            source.close();
        }
    }

    private static McpServerRecord everything() {
        return McpServerRecord.stdio(SERVER, McpPeers.node(),
                List.of(McpPeers.script(McpPeers.EVERYTHING, "dist/index.js"), "stdio"));
    }

    private void open(McpServerRecord record) {
        source = McpToolSource.builder(record, registry).onImport(imports::add).build();
        source.open();
    }

    @Test
    void importsItsToolsWithObjectSchemas() {
        open(everything());

        assertThat(registry.names()).contains("everything.echo", "everything.get-sum",
                "everything.trigger-long-running-operation");
        assertThat(registry.tools()).allSatisfy(tool -> {
            assertThat(tool.argumentSchema().path("type").asText()).isEqualTo("object");
            assertThat(tool).isInstanceOfSatisfying(RemoteTool.class,
                    remote -> assertThat(remote.serverName()).isEqualTo(SERVER));
        });
        assertThat(registry.find("everything.get-sum").orElseThrow().argumentSchema().path("required").toString())
                .isEqualTo("[\"a\",\"b\"]");
    }

    @Test
    void followsTheServersToolListChangedNotification() {
        // the server registers more tools once the handshake is done, and says so with list_changed
        open(everything());

        await().atMost(Duration.ofSeconds(10)).until(() -> imports.stream()
                .anyMatch(report -> report.trigger() == ImportReport.Trigger.LIST_CHANGED));
        // the registry holds what the last listing registered, in name order
        assertThat(registry.names()).contains("everything.simulate-research-query")
                .containsExactlyInAnyOrderElementsOf(source.lastImport().registered())
                .isSortedAccordingTo(String::compareTo);
    }

    @Test
    void aReadOnlyHintDoesNotSpareAToolOfAnApprovalBoundServerItsApproval() {
        McpServerRecord record = everything();
        try (McpConnection direct = new McpConnection(record, SecretResolver.environment(), new IgnoringListener(),
                Clock.systemUTC(), null)) {
            McpSchema.Tool echo = direct.listTools().stream().filter(tool -> tool.name().equals("echo")).findFirst()
                    .orElseThrow();
            assertThat(echo.annotations().readOnlyHint()).isTrue();
        }
        open(record);
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER, ToolSettings.defaults().withServerApprovalBound(SERVER, true));

        RunOutcome outcome = agent.run(agent.loop(calls(call("c1", "everything.echo", "{\"message\": \"hi\"}"))),
                "echo");

        assertThat(outcome.status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
    }

    @Test
    void itsToolsRunUnattendedUnlessTheServerIsDeclaredApprovalBound() {
        open(everything());
        List<String> names = registry.names();

        assertThat(unattended(ToolSettings.defaults().withServerApprovalBound(SERVER, true), names)).isEmpty();
        assertThat(unattended(ToolSettings.defaults().withServerApprovalBound(SERVER, false), names))
                .containsExactlyElementsOf(names);
        assertThat(unattended(ToolSettings.defaults().withServerApprovalBound(SERVER, true)
                .withServerApprovalBound("another", false), names)).isEmpty();
        // nobody declared the server: its tools run without approval, whatever they do
        assertThat(unattended(ToolSettings.defaults(), names)).containsExactlyElementsOf(names);
    }

    private List<String> unattended(ToolSettings settings, List<String> names) {
        return new UnattendedToolFilter(registry, new ToolApprovalRule(ToolSettingsSource.fixed(settings)))
                .unattended(names);
    }

    @Test
    void aLongRunningCallTimesOutCleanlyAndTheRunGoesOn() {
        open(everything().withCallTimeout(Duration.ofSeconds(1)));
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER,
                ToolSettings.defaults().withServerApprovalBound(SERVER, false));
        ToolLoop loop = agent.loop(
                calls(call("c1", "everything.trigger-long-running-operation", "{\"duration\": 5, \"steps\": 1}")),
                calls(call("c2", "everything.echo", "{\"message\": \"still here\"}")),
                answer("done"));

        long started = System.nanoTime();
        RunOutcome outcome = agent.run(loop, "run the long operation");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(resultOf(outcome, "c1")).isEqualTo("Error: server \"everything\" did not answer the call of"
                + " \"trigger-long-running-operation\" within 1 s; it may still be working on it, so its outcome is"
                + " unknown");
        assertThat(resultOf(outcome, "c2")).isEqualTo("Echo: still here");
    }

    @Test
    void aServerKilledMidCallLeavesThatCallsOutcomeUnknownAndTheNextCallReconnects() throws Exception {
        open(everything());
        ProcessHandle server = serverProcess();
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER,
                ToolSettings.defaults().withServerApprovalBound(SERVER, false));
        ToolLoop loop = agent.loop(
                calls(call("c1", "everything.trigger-long-running-operation", "{\"duration\": 30, \"steps\": 1}")),
                answer("not asked: the run stops at the unknown outcome"));

        CompletableFuture<RunOutcome> run = CompletableFuture.supplyAsync(() -> agent.run(loop, "run it"));
        assertThat(agent.executing.await(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(500); // the loop sends the call right after the journal entry; let it reach the server
        server.destroyForcibly();
        RunOutcome outcome = run.get(20, TimeUnit.SECONDS);

        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.OutcomeUnknown.class, unknown -> {
            assertThat(unknown.callId()).isEqualTo("c1");
            assertThat(unknown.reason()).isEqualTo("server \"everything\" went away during the call of"
                    + " trigger-long-running-operation (exited with status 137): whether it took effect is unknown");
        });
        RunOutcome next = agent.run(agent.loop(calls(call("c2", "everything.echo", "{\"message\": \"back\"}")),
                answer("done")), "run it again");
        assertThat(resultOf(next, "c2")).isEqualTo("Echo: back");
        assertThat(serverProcess().pid()).isNotEqualTo(server.pid());
        await().atMost(Duration.ofSeconds(10)).until(() -> imports.stream()
                .anyMatch(report -> report.trigger() == ImportReport.Trigger.RECONNECT));
    }

    @Test
    void anErrorResultOfTheServerIsAFailedToolResultWithTheServersText() throws Exception {
        open(everything());
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER, ToolSettings.defaults().withServerApprovalBound(SERVER, true));

        ToolResult result = registry.find("everything.get-sum").orElseThrow()
                .execute(agent.request("everything.get-sum", "{\"a\": \"one\", \"b\": 2}"));

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).startsWith("Error: MCP error -32602: Input validation error");
    }

    @Test
    void anImageResultIsSummarisedForTheModel() throws Exception {
        open(everything());
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER, ToolSettings.defaults().withServerApprovalBound(SERVER, true));

        ToolResult result = registry.find("everything.get-tiny-image").orElseThrow()
                .execute(agent.request("everything.get-tiny-image", "{}"));

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).containsPattern("\\[image: image/png, \\d+ bytes]");
    }

    @Test
    void itsQuestionWithAMultiSelectFormIsDeclinedWithoutAskingAndRecorded() {
        open(everything());
        // the server offers its elicitation tool once it has seen that this client declares elicitation
        await().atMost(Duration.ofSeconds(10)).until(() -> registry.names()
                .contains("everything.trigger-elicitation-request"));
        AskedInputs asked = new AskedInputs(Clock.systemUTC(), IdGenerator.random(),
                new NetworkntSchemaValidator());
        List<String> questions = new CopyOnWriteArrayList<>();
        asked.attach(() -> questions.add("changed"));
        List<GovernanceEvent> events = new CopyOnWriteArrayList<>();
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER, ToolSettings.defaults());
        ToolLoop loop = ToolLoop.builder(registry, ScriptedChatModel.of(List.of(
                        calls(call("c1", "everything.trigger-elicitation-request", "{}")), answer("done"))))
                .schemas(new NetworkntSchemaValidator())
                .settings(() -> ToolSettings.defaults().withServerApprovalBound(SERVER, false))
                .events(events::add)
                .inputPrompts(asked)
                .build();

        RunOutcome outcome = loop.runLoop(RunRequest.of(agent.configuration, ToolExecutionContext.of(
                ScriptedAgent.MARIA, "run-1", Locale.ENGLISH), "ask me"));

        assertThat(resultOf(outcome, "c1")).contains("User declined to provide the requested information.");
        assertThat(questions).isEmpty();
        assertThat(events).filteredOn(event -> event.type() == EventType.INPUT_ELICITED).singleElement()
                .satisfies(event -> {
                    assertThat(event.reasonCode()).isEqualTo("decline");
                    assertThat(event.actor()).isNull();
                    assertThat(event.detail()).isEqualTo("fields: none that can be shown");
                });
    }

    /** The one running server-everything process this JVM started. */
    private static ProcessHandle serverProcess() {
        List<ProcessHandle> servers = ProcessHandle.current().descendants()
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().commandLine().orElse("").contains("server-everything"))
                .toList();
        assertThat(servers).as("running server-everything processes").hasSize(1);
        return servers.get(0);
    }

    private static final class IgnoringListener implements McpConnection.Listener {
        @Override
        public void toolsChanged() {
        }

        @Override
        public void reconnected() {
        }
    }
}
