package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.cli.Cli;
import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.HostedRuns;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.RunCard;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway with real parts: the official SDK's client as the host, starting {@code countersign gateway} as its
 * server command over stdio; the gateway in front of the reference filesystem and everything servers; a person's
 * decision taken through the run service of another runtime on the same store, as a console would.
 */
class GatewayEndToEndTest {
    private static final Actor RITA = GatewayTestBed.RITA;

    @TempDir
    Path folder;
    private GatewayTestBed bed;
    private Path workspace;
    private CountersignRuntime console;
    private McpSyncClient host;
    private List<List<McpSchema.Tool>> listChanges;

    @BeforeEach
    void setUp() throws Exception {
        bed = new GatewayTestBed(folder);
        workspace = bed.workspace();
        console = bed.console();
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(
                GatewayHost.javaCommand()).args(bed.gatewayArguments()).build(), McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> System.err.println("gateway: " + line));
        host = bed.connect(transport, "gateway-test-host");
        listChanges = bed.listChanges();
    }

    @AfterEach
    void tearDown() {
        if (host != null) {
            host.closeGracefully();
        }
        if (bed != null) {
            bed.close();
        }
    }

    @Test
    void offersTheFrontedServersToolsUnderTheirOwnNamesPrefixedOnlyWhereTheyClash() {
        List<String> names = toolNames();

        assertThat(names).contains("echo", "docs.read_text_file", "disk.write_file");
        assertThat(names).doesNotContain("fs_write", "web_fetch");
        McpSchema.Tool write = host.listTools().tools().stream().filter(t -> t.name().equals("disk.write_file"))
                .findFirst().orElseThrow();
        assertThat(write.inputSchema().get("required")).isEqualTo(List.of("path", "content"));
    }

    @Test
    void aReadPassesStraightThroughAndTheRunShowsTheHost() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "ship on Friday");

        McpSchema.CallToolResult read = host.callTool(new McpSchema.CallToolRequest("docs.read_text_file",
                Map.of("path", workspace.resolve("notes.txt").toString())));
        McpSchema.CallToolResult echo = host.callTool(new McpSchema.CallToolRequest("echo",
                Map.of("message", "hello")));

        assertThat(read.isError()).isFalse();
        assertThat(text(read)).isEqualTo("ship on Friday");
        assertThat(text(echo)).contains("hello");
        assertThat(console.runs().recent(RITA, 5)).anySatisfy(run -> {
            assertThat(run.agent()).isEqualTo("desk");
            assertThat(run.initiator()).isEqualTo(GatewayTestBed.ME);
            assertThat(run.prompt()).isEqualTo("MCP host gateway-test-host 1.0");
            assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
        });
    }

    @Test
    void theOfferedServersResourcesAndPromptsPassThroughAndEachUseIsRecordedWithoutItsContent() throws Exception {
        await().atMost(30, TimeUnit.SECONDS).until(() -> !host.listResources().resources().isEmpty());
        McpSchema.Resource resource = host.listResources().resources().get(0);

        McpSchema.ReadResourceResult read = host.readResource(new McpSchema.ReadResourceRequest(resource.uri()));
        McpSchema.GetPromptResult prompt = host.getPrompt(new McpSchema.GetPromptRequest("simple-prompt",
                Map.of()));

        assertThat(read.contents()).isNotEmpty().allSatisfy(contents ->
                assertThat(contents.uri()).isEqualTo(resource.uri()));
        assertThat(prompt.messages()).isNotEmpty();
        String runId = console.runs().recent(RITA, 5).stream()
                .filter(run -> run.prompt().equals("MCP host gateway-test-host 1.0")).findFirst().orElseThrow()
                .runId();
        await().atMost(10, TimeUnit.SECONDS).until(() -> uses(runId).size() == 2);
        assertThat(uses(runId)).extracting(GovernanceEvent::type, GovernanceEvent::toolName, GovernanceEvent::detail)
                .containsExactlyInAnyOrder(tuple(EventType.RESOURCE_READ, "everything", null),
                        tuple(EventType.PROMPT_USED, "everything", "simple-prompt"));
        assertThat(uses(runId).toString()).doesNotContain(resource.uri());
    }

    @Test
    void aProfileThatDoesNotOfferAServersToolsOffersNoneOfItsResourcesOrPrompts() throws Exception {
        console.gateway().profiles().add(console.localUser(), "files", List.of("docs"), List.of(), "local", false,
                null, null);
        try (GatewayHost files = GatewayHost.connect(folder, bed.db(), "files", List.of("read_text_file"))) {
            assertThat(files.client().listResources().resources()).isEmpty();
            assertThat(files.client().listPrompts().prompts()).isEmpty();
        }
        assertThat(host.listPrompts().prompts()).extracting(McpSchema.Prompt::name).contains("simple-prompt");
    }

    private List<GovernanceEvent> uses(String runId) {
        return console.store().events().page(EventFilter.all().withRunId(runId)
                .ofTypes(Set.of(EventType.RESOURCE_READ, EventType.PROMPT_USED)), PageRequest.first(10)).events();
    }

    @Test
    void aWriteWaitsAsACardAndApprovingItWritesTheFileExactlyOnce() throws Exception {
        bed.assertAnApprovedWriteRunsOnce(host);
    }

    @Test
    void anApprovedCallGivesTheHostTheServersImageNotItsSummary() throws Exception {
        console.store().settings().setServerApprovalBound("everything", true, console.localUser());
        // the offered tools stay the same, so no list_changed says so: the gateway hears it within a second
        Thread.sleep(2000);
        CompletableFuture<McpSchema.CallToolResult> call = CompletableFuture.supplyAsync(() -> host.callTool(
                new McpSchema.CallToolRequest("get-tiny-image", Map.of())));
        WaitingRun card = awaitCard();

        assertThat(console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)))).isInstanceOf(DecisionResult.Done.class);

        McpSchema.CallToolResult result = call.get(60, TimeUnit.SECONDS);
        assertThat(result.isError()).isFalse();
        assertThat(result.content()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(result.content().get(0)).isInstanceOfSatisfying(McpSchema.TextContent.class,
                text -> assertThat(text.text()).isEqualTo("Here's the image you requested:"));
        assertThat(result.content().get(1)).isInstanceOfSatisfying(McpSchema.ImageContent.class, image -> {
            assertThat(image.mimeType()).isEqualTo("image/png");
            assertThat(Base64.getDecoder().decode(image.data())).startsWith(0x89, 'P', 'N', 'G');
        });
    }

    @Test
    void aReadOfAServerDeclaredFreePassesAndItsWriteDeclaredByItselfWaitsOnACardThatSaysSo() throws Exception {
        console.store().settings().setToolDeclaration("docs.write_file", ApprovalDeclaration.APPROVAL_BOUND,
                console.localUser());
        // the offered tools stay the same, so no list_changed says so: the gateway hears it within a second
        Thread.sleep(2000);
        Files.writeString(workspace.resolve("notes.txt"), "ship on Friday");

        McpSchema.CallToolResult read = host.callTool(new McpSchema.CallToolRequest("docs.read_text_file",
                Map.of("path", workspace.resolve("notes.txt").toString())));
        assertThat(text(read)).isEqualTo("ship on Friday");

        Path plan = workspace.resolve("plan.txt");
        CompletableFuture<McpSchema.CallToolResult> write = CompletableFuture.supplyAsync(() -> host.callTool(
                new McpSchema.CallToolRequest("docs.write_file", Map.of("path", plan.toString(),
                        "content", "step one"))));
        RunCard card = console.runs().card(RITA, awaitCard().runId()).orElseThrow();

        assertThat(card.pending()).singleElement().satisfies(call -> {
            assertThat(call.tool()).isEqualTo("docs.write_file");
            assertThat(call.effect()).as("a remote write is never called a read").isNull();
            assertThat(call.effectText()).isEqualTo("remote, declared approval-bound for this tool by "
                    + console.localUser().name());
        });
        assertThat(plan).doesNotExist();
        assertThat(console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)))).isInstanceOf(DecisionResult.Done.class);
        assertThat(write.get(60, TimeUnit.SECONDS).isError()).isFalse();
        assertThat(plan).hasContent("step one");
    }

    @Test
    void anEditedThenApprovedWriteTellsTheHostWhoChangedItsArguments() throws Exception {
        Path plan = workspace.resolve("plan.txt");
        CompletableFuture<McpSchema.CallToolResult> write = CompletableFuture.supplyAsync(() -> host.callTool(
                GatewayHost.writeRequest(plan, "step one", "e1")));
        WaitingRun card = awaitCard();
        ObjectNode edited = Json.mapper().createObjectNode().put("path", plan.toString()).put("content", "step two");

        assertThat(console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approveEdited(0, edited)))).isInstanceOf(DecisionResult.Done.class);

        McpSchema.CallToolResult result = write.get(60, TimeUnit.SECONDS);
        assertThat(result.isError()).isFalse();
        assertThat(plan).hasContent("step two");
        assertThat(result.content().get(result.content().size() - 1)).isInstanceOfSatisfying(
                McpSchema.TextContent.class, note -> assertThat(note.text()).isEqualTo("(Note: rita changed the"
                        + " arguments of this call before approving it; the result above is of the call as they"
                        + " changed it.)"));
    }

    @Test
    void aDenialComesBackAsAnErrorNamingWhoDeclinedIt() throws Exception {
        bed.assertADenialNamesWhoDeclinedIt(host);
    }

    @Test
    void aCallAPreApprovalRuleRefusesNeverReachesTheServerNorACard() {
        Path secret = workspace.resolve("secret.txt");

        McpSchema.CallToolResult refused = host.callTool(writeRequest(secret, "leak", "r1"));

        assertThat(refused.isError()).isTrue();
        assertThat(text(refused)).isEqualTo("Error: invocation denied (rule: test.no.secret.files, reason:"
                + " secret_path). Nothing was executed. The path " + secret + " names a secret, which no call may"
                + " touch.");
        assertThat(secret).doesNotExist();
        assertThat(console.runs().inbox(RITA)).isEmpty();
    }

    @Test
    void theHostHearsListChangedWhenASettingChanges() {
        assertThat(listChanges).isEmpty();
        Actor admin = console.localUser();

        console.store().settings().setGroupEnabled("everything", false, admin);

        await().atMost(20, TimeUnit.SECONDS).until(() -> !listChanges.isEmpty());
        assertThat(toolNames()).doesNotContain("echo").contains("disk.write_file");
    }

    @Test
    void aHostThatDisconnectsWhileItsCardWaitsLeavesNothingToApprove() throws Exception {
        Path plan = workspace.resolve("late.txt");
        CompletableFuture.runAsync(() -> {
            try {
                host.callTool(writeRequest(plan, "too late", "g1"));
            } catch (RuntimeException closed) {
                // the host itself went away
            }
        });
        WaitingRun card = awaitCard();

        host.closeGracefully();
        host = null;

        await().atMost(20, TimeUnit.SECONDS).until(() -> console.runs().inbox(RITA).stream()
                .noneMatch(run -> run.runId().equals(card.runId())));
        DecisionResult late = console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)));
        assertThat(late).isInstanceOfSatisfying(DecisionResult.AlreadyDecided.class, refused -> {
            assertThat(refused.decidedBy()).isEqualTo("gateway");
            assertThat(refused.summary()).startsWith("the MCP host disconnected: nothing was executed");
        });
        assertThat(console.runs().recent(RITA, 5)).anySatisfy(run -> {
            assertThat(run.runId()).isEqualTo(card.runId());
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.failure()).contains("host_disconnected");
        });
        assertThat(plan).doesNotExist();
        // as a script runs it: a refusal with its exit code and one line, and the run's detail names the host
        GatewayTestBed.CliOutcome script = cli("decide", card.runId(), "--digest", card.digest(), "--approve-all");
        assertThat(script.exitCode()).as(script.err()).isEqualTo(Cli.REFUSED);
        assertThat(script.err().lines().toList()).singleElement().asString()
                .contains("already decided by gateway").contains("nothing was executed");
        GatewayTestBed.CliOutcome show = cli("show", card.runId());
        assertThat(show.out()).contains("host_disconnected: the MCP host (gateway-test-host 1.0) disconnected while"
                + " the card waited");
    }

    @Test
    void theRunStartsWhenTheHostConnectsAndCompletesWhenItLeavesWithoutACall() {
        // no call yet: the host's initialize alone started its run
        RunSummary run = console.runs().recent(RITA, 5).stream()
                .filter(found -> found.prompt().equals("MCP host gateway-test-host 1.0")).findFirst().orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.RUNNING);

        host.closeGracefully();
        host = null;

        await().atMost(20, TimeUnit.SECONDS).until(() -> status(run.runId()) == RunStatus.COMPLETED);
        assertThat(console.runs().timeline(RITA, run.runId()).failure()).isNull();
    }

    @Test
    void aGatewayKilledWhileItsCardWaitsSaysSoAndRefusesTheDecision() throws Exception {
        Path plan = workspace.resolve("killed.txt");
        CompletableFuture.runAsync(() -> callQuietly(writeRequest(plan, "never", "k1")));
        WaitingRun card = awaitCard();

        killGateway();

        await().atMost(20, TimeUnit.SECONDS).until(() -> HostedRuns.GATEWAY_STOPPED.equals(
                console.runs().card(RITA, card.runId()).map(RunCard::stranded).orElse(null)));
        GatewayTestBed.CliOutcome script = cli("decide", card.runId(), "--digest", card.digest(), "--approve-all");
        assertThat(script.exitCode()).as(script.err()).isEqualTo(Cli.REFUSED);
        assertThat(script.err().lines().toList()).singleElement().asString()
                .contains("run " + card.runId() + " does not wait for this decision: it is failed: the gateway"
                        + " holding this host's connection stopped; nothing can be carried out");
        assertThat(status(card.runId())).isEqualTo(RunStatus.FAILED);
        assertThat(console.runs().timeline(RITA, card.runId()).failure()).startsWith("gateway_stopped: ");
        assertThat(console.runs().inbox(RITA)).isEmpty();
        assertThat(plan).doesNotExist();
    }

    @Test
    void aGatewayKilledWhileTheApprovedCallExecutesLeavesItFlaggedNeverSentAgainNorRetried() throws Exception {
        console.store().settings().setServerApprovalBound("everything", true, console.localUser());
        // the offered tools stay the same, so no list_changed says so: the gateway hears it within a second
        Thread.sleep(2000);
        CompletableFuture.runAsync(() -> callQuietly(McpSchema.CallToolRequest.builder(
                "trigger-long-running-operation").arguments(Map.of("duration", 30, "steps", 30))
                .progressToken("slow").build()));
        WaitingRun card = awaitCard();
        assertThat(console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)))).isInstanceOf(DecisionResult.Done.class);
        // the gateway took the decision over and sent the call: the host hears the server's own progress (with a
        // total, which the gateway's waiting steps never carry)
        await().atMost(20, TimeUnit.SECONDS).until(() -> bed.progress().stream()
                .anyMatch(note -> "slow".equals(note.progressToken()) && note.total() != null));

        killGateway();

        await().atMost(20, TimeUnit.SECONDS).until(() -> {
            console.resumeInterrupted(null);
            return console.runs().recent(RITA, 5).stream()
                    .anyMatch(run -> run.runId().equals(card.runId()) && run.outcomeUnknown());
        });
        assertThat(console.resumeInterrupted(null)).isEmpty();
        assertThat(status(card.runId())).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
        assertThat(console.runs().recent(RITA, 5)).filteredOn(run -> run.runId().equals(card.runId()))
                .singleElement().satisfies(run -> assertThat(run.outcomeUnknown()).isTrue());

        // No gateway holds the host any more: a retry would show a card nothing can carry out.
        Process settle = new ProcessBuilder(GatewayHost.javaCommand(), "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.countersign.app.Main", "--store", bed.db().toString(), "settle", card.runId(), "--retry")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String refusal = new String(settle.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(settle.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(settle.exitValue()).as(refusal).isEqualTo(Cli.REFUSED);
        assertThat(refusal.strip()).matches(Pattern.quote("countersign: run " + card.runId() + " cannot be retried:"
                + " the gateway holding this host's connection stopped; nothing can be carried out; the outcome of ")
                + "\\S+" + Pattern.quote(" stays unknown (the run ended as gateway_stopped)"));
        assertThat(console.runs().inbox(RITA)).isEmpty();
        assertThat(console.runs().recent(RITA, 5)).filteredOn(run -> run.runId().equals(card.runId()))
                .singleElement().satisfies(run -> {
                    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
                    assertThat(run.failure()).contains("gateway_stopped");
                    assertThat(run.outcomeUnknown()).isFalse();
                });
    }

    private void callQuietly(McpSchema.CallToolRequest request) {
        try {
            host.callTool(request);
        } catch (RuntimeException gone) {
            // the gateway was killed under the host
        }
    }

    /** SIGKILL, as a crash or {@code kill -9} would: the gateway says goodbye to nobody. */
    private void killGateway() throws Exception {
        // the host's server command is the only Java process this one started (the others are MCP servers)
        ProcessHandle gateway = ProcessHandle.current().children()
                .filter(child -> child.info().command().orElse("").endsWith("java")).findFirst().orElseThrow();
        gateway.destroyForcibly();
        gateway.onExit().get(20, TimeUnit.SECONDS);
        host = null;
    }

    private RunStatus status(String runId) {
        return console.runs().timeline(RITA, runId).status();
    }

    /** What one command did. */
    private GatewayTestBed.CliOutcome cli(String... args) {
        return bed.cli(args);
    }

    private WaitingRun awaitCard() {
        return bed.awaitCard();
    }

    private static McpSchema.CallToolRequest writeRequest(Path file, String content, String token) {
        return GatewayHost.writeRequest(file, content, token);
    }

    private List<String> toolNames() {
        return GatewayHost.toolNames(host);
    }

    private static String text(McpSchema.CallToolResult result) {
        return GatewayHost.text(result);
    }
}
