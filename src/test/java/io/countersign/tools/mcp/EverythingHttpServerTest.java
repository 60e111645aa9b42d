package io.countersign.tools.mcp;

import static io.countersign.tools.mcp.ScriptedAgent.answer;
import static io.countersign.tools.mcp.ScriptedAgent.call;
import static io.countersign.tools.mcp.ScriptedAgent.calls;
import static io.countersign.tools.mcp.ScriptedAgent.resultOf;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reference "everything" server as its own process over Streamable HTTP, killed during a long call: the call
 * ends at once with its outcome unknown instead of waiting for its timeout, and the next call, once the server is
 * back, connects again.
 */
class EverythingHttpServerTest {
    private static final String SERVER = "everything";
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    private final ToolRegistry registry = new ToolRegistry();
    private Process server;
    private McpToolSource source;

    @AfterEach
    void stop() {
        if (source != null) {
            source.close();
        }
        if (server != null) {
            server.destroyForcibly();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Starts the server on the port and waits until it says it listens. */
    private static Process start(int port) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(McpPeers.node(),
                McpPeers.script(McpPeers.EVERYTHING, "dist/index.js"), "streamableHttp").redirectErrorStream(true);
        builder.environment().put("PORT", Integer.toString(port));
        Process started = builder.start();
        CountDownLatch listening = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(started.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (line.contains("listening on port")) {
                        listening.countDown();
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        assertThat(listening.await(20, TimeUnit.SECONDS)).as("the server listens on port %d", port).isTrue();
        return started;
    }

    @Test
    void aServerKilledMidCallLeavesThatCallsOutcomeUnknownAtOnceAndTheNextCallConnectsAgain() throws Exception {
        int port = freePort();
        server = start(port);
        source = McpToolSource.builder(McpServerRecord.streamableHttp(SERVER,
                URI.create("http://127.0.0.1:" + port + "/mcp")).withCallTimeout(CALL_TIMEOUT), registry).build();
        source.open();
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER,
                ToolSettings.defaults().withServerApprovalBound(SERVER, false));
        ToolLoop loop = agent.loop(
                calls(call("c1", "everything.trigger-long-running-operation", "{\"duration\": 30, \"steps\": 3}")),
                answer("not asked: the run stops at the unknown outcome"));

        CompletableFuture<RunOutcome> run = CompletableFuture.supplyAsync(() -> agent.run(loop, "run it"));
        assertThat(agent.executing.await(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(500); // the loop sends the call right after the journal entry; let it reach the server
        long killed = System.nanoTime();
        server.destroyForcibly();
        RunOutcome outcome = run.get(20, TimeUnit.SECONDS);

        assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThan(Duration.ofSeconds(5));
        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.OutcomeUnknown.class, unknown -> {
            assertThat(unknown.callId()).isEqualTo("c1");
            assertThat(unknown.reason()).isEqualTo("server \"everything\" went away during the call of"
                    + " trigger-long-running-operation (the stream could not be resumed: connection refused): whether it took effect is unknown");
        });

        server = start(port);
        RunOutcome next = agent.run(agent.loop(calls(call("c2", "everything.echo", "{\"message\": \"back\"}")),
                answer("done")), "run it again");
        assertThat(resultOf(next, "c2")).isEqualTo("Echo: back");
    }
}
