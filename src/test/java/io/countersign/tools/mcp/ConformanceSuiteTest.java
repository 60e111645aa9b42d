package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.testing.FastJava;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The MCP client conformance suite runs its scenario servers and launches {@link ConformanceClient} against them,
 * with the URL appended to the command; it exits with 0 when every check passed.
 */
class ConformanceSuiteTest {
    private static final long SCENARIO_TIMEOUT_SECONDS = 90;
    /**
     * How long the suite lets the client run before it kills it (its own default is 30 s): most of the scenario's
     * time, the rest left for the suite to write its report.
     */
    private static final long CLIENT_TIMEOUT_SECONDS = SCENARIO_TIMEOUT_SECONDS - 10;

    /** The scenarios expected to pass; each runs in processes of its own, so they run a few at a time. */
    private static final List<String> PASSING = List.of("initialize", "tools_call", "sse-retry",
            "elicitation-sep1034-client-defaults",
            // MCP authorization (OAuth 2.1): discovery, registration, PKCE sign-in, scopes, token endpoint auth
            "auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
            "auth/basic-cimd", "auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
            "auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported",
            "auth/scope-omitted-when-undefined", "auth/scope-step-up", "auth/token-endpoint-auth-basic",
            "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none", "auth/client-credentials-basic",
            "auth/client-credentials-jwt");
    private static final String RETRY_LIMIT = "auth/scope-retry-limit";
    private static ExecutorService suites;
    private static Map<String, Future<Run>> runs;

    @BeforeAll
    static void startEveryScenario() {
        suites = Executors.newFixedThreadPool(3);
        runs = new ConcurrentHashMap<>();
        Stream.concat(PASSING.stream(), Stream.of(RETRY_LIMIT))
                .forEach(scenario -> runs.put(scenario, suites.submit(() -> run(scenario))));
    }

    @AfterAll
    static void stopSuites() {
        suites.shutdownNow();
    }

    static List<String> passing() {
        return PASSING;
    }

    @ParameterizedTest
    @MethodSource("passing")
    void ourClientPassesTheConformanceScenario(String scenario) throws Exception {
        Run run = runs.get(scenario).get();

        assertThat(run.finished()).as("the suite finished within %d s:%n%s", SCENARIO_TIMEOUT_SECONDS, run.output())
                .isTrue();
        assertThat(run.exitValue()).as("the suite's exit status; its output:%n%s", run.output()).isZero();
        assertThat(run.output()).contains("OVERALL: PASSED");
    }

    /**
     * The server refuses every token for want of a scope it never grants. The client stops after the step-ups it
     * allows itself, says why, and exits 1: all the suite's checks pass, but it counts any non-zero exit as a
     * failure, so this scenario cannot read "OVERALL: PASSED" for a client that reports the refusal.
     */
    @Test
    void aServerThatWantsScopeItNeverGrantsIsGivenUpOnWithinTheRetryLimit() throws Exception {
        Run run = runs.get(RETRY_LIMIT).get();

        assertThat(run.finished()).as(run.output()).isTrue();
        JsonNode checks = new ObjectMapper().readTree(Files.readString(run.checks()));
        assertThat(checks.findValuesAsText("status")).as(run.output()).doesNotContain("FAILURE", "WARNING");
        assertThat(checks).filteredOn(check -> check.path("id").asText().equals("scope-retry-limit"))
                .singleElement().satisfies(check -> assertThat(check.path("status").asText()).isEqualTo("SUCCESS"));
        assertThat(run.output()).contains("refused the token for want of scope (mcp:admin), which the sign-in"
                + " already asked for", "Client exited with code 1");
    }

    private record Run(boolean finished, int exitValue, String output, Path workspace) {
        /** The checks the suite saved for the scenario. */
        Path checks() throws IOException {
            try (var files = Files.walk(workspace.resolve("results"))) {
                return files.filter(file -> file.getFileName().toString().equals("checks.json")).findFirst()
                        .orElseThrow();
            }
        }
    }

    private static Run run(String scenario) throws Exception {
        Path workspace = Files.createTempDirectory("countersign-conformance-");
        Path log = workspace.resolve("suite.log");
        String client = FastJava.command(ConformanceClient.class.getName()).stream().map(ConformanceSuiteTest::quoted)
                .collect(Collectors.joining(" "));
        Process suite = new ProcessBuilder(List.of(McpPeers.node(),
                McpPeers.script(McpPeers.CONFORMANCE, "dist/index.js"), "client", "--command", client,
                "--scenario", scenario, "--timeout", String.valueOf(TimeUnit.SECONDS.toMillis(CLIENT_TIMEOUT_SECONDS))))
                .directory(workspace.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();

        boolean finished = suite.waitFor(SCENARIO_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!finished) {
            suite.descendants().forEach(ProcessHandle::destroyForcibly);
            suite.destroyForcibly();
        }
        return new Run(finished, finished ? suite.exitValue() : -1, read(log), workspace);
    }

    /** The suite runs the command through a shell. */
    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static String read(Path log) throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }
}
