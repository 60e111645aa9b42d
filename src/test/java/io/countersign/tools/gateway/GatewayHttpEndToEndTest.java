package io.countersign.tools.gateway;

import static io.countersign.tools.gateway.GatewayTestBed.RITA;
import static io.countersign.tools.gateway.GatewayHost.text;
import static io.countersign.tools.gateway.GatewayHost.writeRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway over Streamable HTTP with real parts: {@code countersign gateway --listen 127.0.0.1:0} as a child
 * process in front of the reference filesystem and everything servers, the official SDK's streamable HTTP client
 * as the host, and a person's decision taken through another runtime on the same store.
 */
class GatewayHttpEndToEndTest {
    @TempDir
    Path folder;
    private GatewayTestBed bed;
    private CountersignRuntime console;
    private HttpGatewayProcess listener;
    private Process gateway;
    private URI url;
    private final List<McpSyncClient> hosts = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        bed = new GatewayTestBed(folder);
        console = bed.console();
        List<String> command = new ArrayList<>(List.of(GatewayHost.javaCommand()));
        command.addAll(bed.gatewayArguments("--listen", "127.0.0.1:0"));
        listener = HttpGatewayProcess.start(command);
        gateway = listener.process();
        url = listener.url();
    }

    @AfterEach
    void tearDown() throws Exception {
        for (McpSyncClient host : hosts) {
            host.closeGracefully();
        }
        if (listener != null) {
            listener.close();
        }
        if (bed != null) {
            bed.close();
        }
    }

    @Test
    void printsTheRealPortAndOffersTheToolsOverHttp() {
        assertThat(url.toString()).matches("http://127\\.0\\.0\\.1:\\d+/mcp").doesNotContain(":0/");
        McpSyncClient host = host("first-host");

        McpSchema.Tool write = host.listTools().tools().stream().filter(t -> t.name().equals("disk.write_file"))
                .findFirst().orElseThrow();
        assertThat(write.inputSchema().get("required")).isEqualTo(List.of("path", "content"));
    }

    @Test
    void aReadPassesStraightThrough() throws Exception {
        McpSyncClient host = host("first-host");
        Files.writeString(bed.workspace().resolve("notes.txt"), "ship on Friday");

        McpSchema.CallToolResult read = host.callTool(new McpSchema.CallToolRequest("docs.read_text_file",
                Map.of("path", bed.workspace().resolve("notes.txt").toString())));

        assertThat(read.isError()).isFalse();
        assertThat(text(read)).isEqualTo("ship on Friday");
    }

    @Test
    void aWriteWaitsAsACardAndApprovingItWritesTheFileExactlyOnce() throws Exception {
        bed.assertAnApprovedWriteRunsOnce(host("first-host"));
    }

    @Test
    void aDenialComesBackAsAnErrorNamingWhoDeclinedIt() throws Exception {
        bed.assertADenialNamesWhoDeclinedIt(host("first-host"));
    }

    @Test
    void twoSessionsAreTwoRunsAndDeletingOneEndsOnlyItsRun() throws Exception {
        McpSyncClient leaving = host("leaving-host");
        McpSyncClient staying = host("staying-host");
        Path late = bed.workspace().resolve("late.txt");
        CompletableFuture.runAsync(() -> {
            try {
                leaving.callTool(writeRequest(late, "too late", "g1"));
            } catch (RuntimeException closed) {
                // the host itself went away
            }
        });
        WaitingRun card = bed.awaitCard();
        assertThat(staying.callTool(new McpSchema.CallToolRequest("echo", Map.of("message", "here")))
                .isError()).isFalse();
        assertThat(console.runs().recent(RITA, 5)).extracting(run -> run.prompt())
                .contains("MCP host leaving-host 1.0", "MCP host staying-host 1.0");

        // The SDK's client deletes its session (HTTP DELETE) when it closes.
        leaving.closeGracefully();
        hosts.remove(leaving);

        await().atMost(20, TimeUnit.SECONDS).until(() -> console.runs().inbox(RITA).isEmpty());
        assertThat(console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0))))
                .isInstanceOfSatisfying(DecisionResult.AlreadyDecided.class,
                        refused -> assertThat(refused.decidedBy()).isEqualTo("gateway"));
        assertThat(console.runs().recent(RITA, 5)).anySatisfy(run -> {
            assertThat(run.prompt()).isEqualTo("MCP host leaving-host 1.0");
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.failure()).contains("host_disconnected");
        }).anySatisfy(run -> {
            assertThat(run.prompt()).isEqualTo("MCP host staying-host 1.0");
            assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
        });
        assertThat(staying.callTool(new McpSchema.CallToolRequest("echo", Map.of("message", "still here")))
                .isError()).isFalse();
        assertThat(late).doesNotExist();
    }

    @Test
    void theHttpHostHearsListChangedWhenASettingChanges() {
        McpSyncClient host = host("first-host");
        List<List<McpSchema.Tool>> listChanges = bed.listChanges();

        console.store().settings().setGroupEnabled("everything", false, console.localUser());

        await().atMost(20, TimeUnit.SECONDS).until(() -> !listChanges.isEmpty());
        assertThat(GatewayHost.toolNames(host)).doesNotContain("echo").contains("disk.write_file");
    }

    @Test
    void aRequestFromAForeignOriginIsRefusedAndOneFromTheGatewaysOwnIsServed() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"page\",\"version\":\"1\"}}}";

        HttpResponse<String> foreign = http.send(post(initialize).header("Origin", "http://evil.example")
                .build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> own = http.send(post(initialize).header("Origin", "http://" + url.getAuthority())
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(foreign.statusCode()).isEqualTo(403);
        assertThat(own.statusCode()).isEqualTo(200);
        assertThat(own.headers().firstValue("Mcp-Session-Id")).isPresent();
        // the served initialize started its host's run; the refused one reached nothing
        assertThat(console.runs().recent(RITA, 5)).singleElement()
                .satisfies(run -> assertThat(run.prompt()).isEqualTo("MCP host page 1"));
    }

    @Test
    void sigtermEndsEverySessionAsADisconnect() throws Exception {
        McpSyncClient host = host("first-host");
        CompletableFuture.runAsync(() -> {
            try {
                host.callTool(writeRequest(bed.workspace().resolve("stopped.txt"), "never", "s1"));
            } catch (RuntimeException closed) {
                // the gateway went away
            }
        });
        WaitingRun card = bed.awaitCard();

        gateway.destroy();

        assertThat(gateway.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(gateway.exitValue()).isZero();
        assertThat(console.runs().inbox(RITA)).isEmpty();
        assertThat(console.runs().recent(RITA, 5)).anySatisfy(run -> {
            assertThat(run.runId()).isEqualTo(card.runId());
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.failure()).contains("host_disconnected");
        });
    }

    private HttpRequest.Builder post(String body) {
        return HttpRequest.newBuilder(url).header("Authorization", listener.authorization())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** A host connected over HTTP, once the fronted servers' tools are all offered. */
    private McpSyncClient host(String name) {
        McpSyncClient host = bed.connect(listener.transport(), name);
        hosts.add(host);
        return host;
    }
}
