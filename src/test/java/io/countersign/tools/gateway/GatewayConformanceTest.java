package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.Actor;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.mcp.McpPeers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The MCP conformance suite's server scenarios that apply to a gateway, run by the suite itself against
 * {@code countersign gateway --listen} in front of a stdio server with the scenarios' tools
 * ({@code conformance/scenario-tools.mjs}). The suite takes no request headers, so
 * {@code conformance/bearer-header.mjs} gives its client the gateway's token. The table in docs/mcp.md says why the others do not pass.
 */
class GatewayConformanceTest {
    @TempDir
    static Path folder;
    private static HttpGatewayProcess gateway;

    @BeforeAll
    static void aGatewayInFrontOfTheScenarioTools() throws Exception {
        Path db = folder.resolve("countersign.db");
        try (Store store = Store.open(new StoreLocation.SqliteFile(db))) {
            Actor admin = store.users().signedIn(GatewayTestBed.ME);
            store.servers().add(McpPeers.scenarioTools(folder, "scenarios"), admin);
            store.settings().setServerApprovalBound("scenarios", false, admin);
        }
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(db),
                CountersignRuntime.Work.DECIDE, Duration.ofSeconds(30))) {
            runtime.gateway().profiles().add(runtime.localUser(), "suite", List.of("scenarios"), List.of(), "local",
                    false, null, null);
        }
        List<String> command = new ArrayList<>(List.of(GatewayHost.javaCommand()));
        command.addAll(GatewayHost.gatewayArguments(folder, db, "suite", "--listen", "127.0.0.1:0"));
        gateway = HttpGatewayProcess.start(command);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (gateway != null) {
            gateway.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"server-initialize", "ping", "logging-set-level", "tools-list", "tools-call-simple-text",
            "tools-call-error", "tools-call-image", "tools-call-audio", "tools-call-embedded-resource",
            "tools-call-mixed-content", "json-schema-2020-12", "server-sse-multiple-streams",
            "tools-call-with-progress", "tools-call-with-logging", "tools-call-sampling", "tools-call-elicitation",
            "elicitation-sep1034-defaults", "elicitation-sep1330-enums", "resources-list", "resources-read-text",
            "resources-read-binary", "resources-templates-read", "resources-subscribe", "resources-unsubscribe",
            "completion-complete", "prompts-list", "prompts-get-simple",
            "prompts-get-with-args", "prompts-get-embedded-resource", "prompts-get-with-image"})
    void passes(String scenario) throws Exception {
        String report = suite(scenario);

        assertThat(report).containsPattern("Passed: (\\d+)/\\1, 0 failed").doesNotContain("FAILURE");
    }

    /** The module that adds the gateway's header to the suite's requests, copied out of the test resources. */
    private static Path bearerHeader() throws IOException {
        Path module = folder.resolve("bearer-header.mjs");
        if (!Files.exists(module)) {
            try (InputStream resource = GatewayConformanceTest.class.getResourceAsStream(
                    "/conformance/bearer-header.mjs")) {
                Files.copy(resource, module);
            }
        }
        return module;
    }

    /** The suite's report of one scenario, without its colours; fails when the suite itself fails. */
    private static String suite(String scenario) throws IOException, InterruptedException {
        Path output = folder.resolve(scenario + ".txt");
        ProcessBuilder command = new ProcessBuilder(McpPeers.node(), "--import", bearerHeader().toUri().toString(),
                McpPeers.script(McpPeers.CONFORMANCE, "dist/index.js"), "server", "--url", gateway.url().toString(),
                "--scenario", scenario);
        command.environment().put("MCP_AUTHORIZATION", gateway.authorization());
        Process suite = command.directory(folder.toFile()).redirectErrorStream(true).redirectOutput(output.toFile())
                .start();
        assertThat(suite.waitFor(2, TimeUnit.MINUTES)).as("the suite finished " + scenario).isTrue();
        String report = Files.readString(output, StandardCharsets.UTF_8).replaceAll("\u001B\\[[0-9;]*m", "");
        assertThat(suite.exitValue()).as(report).isZero();
        return report;
    }
}
