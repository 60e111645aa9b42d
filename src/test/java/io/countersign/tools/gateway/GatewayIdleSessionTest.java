package io.countersign.tools.gateway;

import static io.countersign.tools.gateway.GatewayTestBed.RITA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.testing.FastJava;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP hosts that vanish without deleting their session: {@code countersign gateway --listen 127.0.0.1:0
 * --session-idle 3} as a child process, a host killed with SIGKILL while its card waits, and a host that
 * initializes and then says nothing.
 */
class GatewayIdleSessionTest {
    private static final Duration IDLE = Duration.ofSeconds(3);

    @TempDir
    Path folder;
    private GatewayTestBed bed;
    private CountersignRuntime console;
    private HttpGatewayProcess listener;
    private URI url;
    private Process host;

    @BeforeEach
    void setUp() throws Exception {
        bed = new GatewayTestBed(folder);
        console = bed.console();
        List<String> command = new ArrayList<>(List.of(GatewayHost.javaCommand()));
        command.addAll(bed.gatewayArguments("--listen", "127.0.0.1:0", "--session-idle",
                Long.toString(IDLE.toSeconds())));
        listener = HttpGatewayProcess.start(command);
        url = listener.url();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (host != null) {
            host.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (listener != null) {
            listener.close();
        }
        if (bed != null) {
            bed.close();
        }
    }

    @Test
    void aHostKilledWhileItsCardWaitsHasTheCardWithdrawnAtOnceAndItsRunEndsWithinTheIdleTime() throws Exception {
        Path late = bed.workspace().resolve("late.txt");
        host = new ProcessBuilder(FastJava.command(HttpHostProcess.class.getName(), url.toString(),
                listener.authorization(), late.toString(), "too late")).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(host.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("calling");
        WaitingRun card = bed.awaitCard();
        // a live host whose call waits is no idle host, however long the card waits
        await().pollDelay(IDLE.plusSeconds(1)).until(() -> true);
        assertThat(console.runs().inbox(RITA)).extracting(WaitingRun::runId).containsExactly(card.runId());

        long killed = System.nanoTime();
        host.destroyForcibly();
        assertThat(host.waitFor(10, TimeUnit.SECONDS)).isTrue();

        await().atMost(30, TimeUnit.SECONDS).pollInterval(Duration.ofMillis(100))
                .until(() -> console.runs().inbox(RITA).isEmpty());
        Duration withdrawn = Duration.ofNanos(System.nanoTime() - killed);
        await().atMost(30, TimeUnit.SECONDS).pollInterval(Duration.ofMillis(100))
                .until(() -> run(card.runId()).status() != RunStatus.RUNNING);
        Duration ended = Duration.ofNanos(System.nanoTime() - killed);
        System.out.println("card withdrawn " + withdrawn.toMillis() + " ms and run ended " + ended.toMillis()
                + " ms after SIGKILL (idle time " + IDLE.toMillis() + " ms)");
        // the call's request closed when its next progress write (every second) failed: the card went at once;
        // the session, and so the run, ended after the idle time, once the GET stream's pings failed too
        assertThat(withdrawn).isLessThan(ended).isLessThan(IDLE.multipliedBy(2));
        assertThat(ended).isGreaterThanOrEqualTo(IDLE).isLessThan(IDLE.multipliedBy(3));
        assertThat(console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0))))
                .isInstanceOfSatisfying(DecisionResult.AlreadyDecided.class,
                        refused -> assertThat(refused.cancelledByHost()).isTrue());
        assertThat(run(card.runId())).satisfies(run -> {
            assertThat(run.prompt()).isEqualTo("MCP host doomed-host 1.0");
            assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
        });
        assertThat(late).doesNotExist();
    }

    @Test
    void aSilentHostsSessionEndsAfterTheIdleTimeAndItsIdIsThenUnknown() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> initialized = http.send(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":"
                + "\"quiet\",\"version\":\"1\"}}}", null), HttpResponse.BodyHandlers.ofString());
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(http.send(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(202);
        long lastRequest = System.nanoTime();
        assertThat(console.runs().recent(RITA, 5)).singleElement()
                .satisfies(run -> assertThat(run.status()).isEqualTo(RunStatus.RUNNING));

        await().atMost(30, TimeUnit.SECONDS).pollInterval(Duration.ofMillis(100)).until(() ->
                console.runs().recent(RITA, 5).get(0).status() != RunStatus.RUNNING);

        assertThat(Duration.ofNanos(System.nanoTime() - lastRequest)).isGreaterThanOrEqualTo(IDLE);
        // as a host that disconnects with nothing waiting: its run is over
        assertThat(console.runs().recent(RITA, 5).get(0).status()).isEqualTo(RunStatus.COMPLETED);
        HttpResponse<String> late = http.send(post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                session), HttpResponse.BodyHandlers.ofString());
        assertThat(late.statusCode()).isEqualTo(404);
        assertThat(console.runs().recent(RITA, 5)).hasSize(1);
    }

    private RunSummary run(String runId) {
        return console.runs().recent(RITA, 5).stream().filter(run -> run.runId().equals(runId)).findFirst()
                .orElseThrow();
    }

    private HttpRequest post(String body, String session) {
        HttpRequest.Builder request = HttpRequest.newBuilder(url)
                .header("Authorization", listener.authorization()).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return request.build();
    }
}
