package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The MCP client conformance suite runs its scenario servers and launches {@link ConformanceClient} against them,
 * with the URL appended to the command; it exits with 0 when every check passed.
 */
class ConformanceSuiteTest {
    private static final long SCENARIO_TIMEOUT_SECONDS = 90;

    @ParameterizedTest
    @ValueSource(strings = {"initialize", "tools_call", "sse-retry",
            "elicitation-sep1034-client-defaults"})
    void ourClientPassesTheConformanceScenario(String scenario) throws Exception {
        Path workspace = Files.createTempDirectory("countersign-conformance-");
        Path log = workspace.resolve("suite.log");
        String client = quoted(ProcessHandle.current().info().command().orElseThrow()) + " -cp "
                + quoted(System.getProperty("java.class.path")) + " " + ConformanceClient.class.getName();
        Process suite = new ProcessBuilder(List.of(McpPeers.node(),
                McpPeers.script(McpPeers.CONFORMANCE, "dist/index.js"), "client", "--command", client,
                "--scenario", scenario))
                .directory(workspace.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();

        boolean finished = suite.waitFor(SCENARIO_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!finished) {
            suite.descendants().forEach(ProcessHandle::destroyForcibly);
            suite.destroyForcibly();
        }
        String output = read(log);

        assertThat(finished).as("the suite finished within %d s:%n%s", SCENARIO_TIMEOUT_SECONDS, output).isTrue();
        assertThat(suite.exitValue()).as("the suite's exit status; its output:%n%s", output).isZero();
        assertThat(output).contains("OVERALL: PASSED");
    }

    /** The suite runs the command through a shell. */
    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static String read(Path log) throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }
}
