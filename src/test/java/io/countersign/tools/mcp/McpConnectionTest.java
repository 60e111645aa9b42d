package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.sun.net.httpserver.HttpServer;
import io.countersign.engine.ProjectVersion;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.tools.mcp.oauth.FileTokenVault;
import io.countersign.tools.mcp.oauth.OAuthClientSettings;
import io.countersign.tools.mcp.oauth.OAuthSetup;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** Connecting to servers that cannot be started, that misbehave, and that need a secret. */
class McpConnectionTest {
    private final ToolRegistry registry = new ToolRegistry();

    private static McpServerRecord misbehaving(String mode) {
        String java = ProcessHandle.current().info().command().orElseThrow();
        return McpServerRecord.stdio("odd", java, List.of("-cp", System.getProperty("java.class.path"),
                MisbehavingServer.class.getName(), mode)).withConnectTimeout(Duration.ofSeconds(10));
    }

    @Test
    void theRetryDelayDoublesFromHalfASecondUpToThirtySeconds() {
        assertThat(List.of(1, 2, 3, 6, 7, 100)).extracting(McpConnection.RECONNECTS::delayBefore)
                .containsExactly(
                Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(16),
                Duration.ofSeconds(30), Duration.ofSeconds(30));
    }

    @Test
    void aServerThatCannotStartIsReportedAndTriedAgainOnlyAfterTheBackoff() {
        MutableClock clock = new MutableClock();
        McpServerRecord ghost = McpServerRecord.stdio("ghost", "/nonexistent/countersign-mcp-server", List.of());
        McpToolSource source = McpToolSource.builder(ghost, registry).clock(clock).build();

        assertThatThrownBy(source::open).isInstanceOfSatisfying(McpServerException.class, e -> {
            assertThat(e.kind()).isEqualTo(McpServerException.Kind.UNREACHABLE);
            assertThat(e).hasMessage("server \"ghost\" could not be started: the command"
                    + " \"/nonexistent/countersign-mcp-server\" could not be run");
        });
        assertThatThrownBy(source::open).isInstanceOfSatisfying(McpServerException.class, e -> {
            assertThat(e.kind()).isEqualTo(McpServerException.Kind.BACKING_OFF);
            assertThat(e).hasMessage("server \"ghost\" could not be reached a moment ago; the next attempt is in 1 s");
        });
        clock.advance(Duration.ofMillis(600));
        assertThatThrownBy(source::open).isInstanceOfSatisfying(McpServerException.class,
                e -> assertThat(e.kind()).isEqualTo(McpServerException.Kind.UNREACHABLE));
        assertThat(registry.names()).isEmpty();
    }

    @Test
    void theClientReportsTheProjectsVersionInTheHandshake() {
        try (McpToolSource source = McpToolSource.builder(misbehaving("client-version"), registry).build()) {
            source.open();

            assertThat(registry.find("odd.version").orElseThrow().description())
                    .isEqualTo(ProjectVersion.current()).isNotEqualTo(ProjectVersion.DEVELOPMENT).isNotBlank();
        }
    }

    @Test
    void anHttpServerThatRefusesTheRecordsOwnCredentialsIsReportedAsRefusingAccessNotAsUnreachable()
            throws IOException {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest request) {
                    return new MockResponse.Builder().code(401).addHeader("WWW-Authenticate", "Bearer").build();
                }
            });
            server.start();
            McpServerRecord docs = McpServerRecord.streamableHttp("docs", server.url("/mcp").uri())
                    .withTransport(new McpServerRecord.StreamableHttp(server.url("/mcp").uri(),
                            Map.of("Authorization", "env:PATH")))
                    .withConnectTimeout(Duration.ofSeconds(5));
            McpToolSource source = McpToolSource.builder(docs, registry).build();

            assertThatThrownBy(source::open).isInstanceOfSatisfying(McpServerException.class, e -> {
                assertThat(e.kind()).isEqualTo(McpServerException.Kind.UNAUTHORIZED);
                assertThat(e).hasMessage("server \"docs\" refused access (HTTP 401) for the handshake: check the"
                        + " credentials its record sends (a header such as Authorization=env:VARIABLE, and that"
                        + " variable's value)");
            });
            source.close();
            assertThat(server.getRequestCount()).as("no OAuth discovery for a record with its own credentials")
                    .isEqualTo(1);
        }
    }

    @Test
    void anHttpServerThatAnswers401WithoutAnyOAuthEndpointsIsReportedAsRefusingAccessNamingTheStep()
            throws IOException {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest request) {
                    return new MockResponse.Builder().code(401).addHeader("WWW-Authenticate", "Bearer").build();
                }
            });
            server.start();
            McpServerRecord docs = McpServerRecord.streamableHttp("docs", server.url("/mcp").uri())
                    .withConnectTimeout(Duration.ofSeconds(5));
            McpToolSource source = McpToolSource.builder(docs, registry).oauth(new OAuthSetup(
                    OAuthClientSettings.defaults(), new FileTokenVault(Files.createTempDirectory("countersign-oauth-")
                    .resolve("oauth-tokens.json")), url -> {
                throw new AssertionError("no sign-in page without a registered client");
            })).build();

            assertThatThrownBy(source::open).isInstanceOfSatisfying(McpServerException.class, e -> {
                assertThat(e.kind()).isEqualTo(McpServerException.Kind.UNAUTHORIZED);
                assertThat(e).hasMessage("server \"docs\" could not be authorized for the handshake: the registration"
                        + " endpoint " + server.url("/register") + " refused to register Countersign: HTTP 401");
            });
            source.close();
        }
    }

    /** Answers the handshake over Streamable HTTP and lets tools/list wait ten seconds. */
    private static final class SlowListingServer extends Dispatcher {
        final CountDownLatch listing = new CountDownLatch(1);

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String body = request.getBody() == null ? "" : request.getBody().utf8();
            if (!body.contains("\"id\"")) {
                return new MockResponse.Builder().code(202).build();
            }
            String id = body.replaceAll("(?s).*\"id\"\\s*:\\s*(\"[^\"]*\"|\\d+).*", "$1");
            if (body.contains("\"initialize\"")) {
                return json("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"result\": {\"protocolVersion\":"
                        + " \"2025-06-18\", \"capabilities\": {\"tools\": {}}, \"serverInfo\": {\"name\": \"slow\","
                        + " \"version\": \"1\"}}}").build();
            }
            listing.countDown();
            return json("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"result\": {\"tools\": []}}")
                    .headersDelay(10, TimeUnit.SECONDS).build();
        }

        private static MockResponse.Builder json(String body) {
            return new MockResponse.Builder().addHeader("Content-Type", "application/json").body(body);
        }
    }

    @Test
    void aListingInterruptedByItsOwnerIsNoFailureWorthAWarning() throws Exception {
        Logger logger = Logger.getLogger(McpConnection.class.getName());
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Handler catcher = new Handler() {
            @Override
            public void publish(LogRecord entry) {
                if (entry.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(entry);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(catcher);
        SlowListingServer dispatcher = new SlowListingServer();
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(dispatcher);
            server.start();
            McpServerRecord slow = McpServerRecord.streamableHttp("slow", server.url("/mcp").uri())
                    .withConnectTimeout(Duration.ofSeconds(20));
            McpToolSource source = McpToolSource.builder(slow, registry).build();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            Thread opening = new Thread(() -> {
                try {
                    source.open();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            });
            opening.start();
            assertThat(dispatcher.listing.await(10, TimeUnit.SECONDS)).isTrue();
            opening.interrupt();
            opening.join(5_000);

            assertThat(failures).singleElement().asString().endsWith("server \"slow\" was disconnected during"
                    + " tools/list");
            assertThat(warnings).isEmpty();
            source.close();
        } finally {
            logger.removeHandler(catcher);
        }
    }

    @Test
    void aLineThatIsNotJsonRpcStopsTheServerAndIsReported() {
        McpToolSource source = McpToolSource.builder(misbehaving("not-json"), registry).build();

        assertThatThrownBy(source::open).isInstanceOfSatisfying(McpServerException.class, e -> {
            assertThat(e.kind()).isEqualTo(McpServerException.Kind.STOPPED);
            assertThat(e).hasMessage("server \"odd\" stopped (wrote a line that is not a JSON-RPC message) during"
                    + " tools/list; the next use starts it again");
        });
        source.close();
        assertThat(registry.names()).isEmpty();
    }

    @Test
    void aToolListThatIsNotAListIsReportedAndNothingRegistered() {
        McpToolSource source = McpToolSource.builder(misbehaving("bad-tools"), registry).build();

        assertThatThrownBy(source::open).isInstanceOfSatisfying(McpServerException.class, e -> {
            assertThat(e.kind()).isEqualTo(McpServerException.Kind.INVALID_ANSWER);
            assertThat(e).hasMessage("server \"odd\" answered tools/list with something that is not valid MCP");
        });
        source.close();
        assertThat(registry.names()).isEmpty();
    }

    @Test
    void aSecretReferenceToAnUnsetVariableIsReportedByTheVariablesName() {
        McpServerRecord search = McpServerRecord.streamableHttp("search", URI.create("http://127.0.0.1:9/mcp"))
                .withTransport(new McpServerRecord.StreamableHttp(URI.create("http://127.0.0.1:9/mcp"),
                        Map.of("Authorization", "env:SEARCH_TOKEN")));
        McpToolSource source = McpToolSource.builder(search, registry).secrets(variable -> Optional.empty()).build();

        assertThatThrownBy(source::open).isInstanceOfSatisfying(McpServerException.class, e -> {
            assertThat(e.kind()).isEqualTo(McpServerException.Kind.CONFIGURATION);
            assertThat(e).hasMessage("header \"Authorization\" of server \"search\" refers to the environment"
                    + " variable SEARCH_TOKEN, which is not set");
        });
    }

    @Test
    void aReferencedSecretIsSentAtConnectTimeAndNeverShownInAFailure() throws IOException {
        List<String> authorizations = new CopyOnWriteArrayList<>();
        HttpServer peer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        peer.createContext("/mcp", exchange -> {
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] refusal = "{\"error\": \"no\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(500, refusal.length);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(refusal);
            }
        });
        peer.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + peer.getAddress().getPort() + "/mcp");
            McpServerRecord search = McpServerRecord.streamableHttp("search", url)
                    .withTransport(new McpServerRecord.StreamableHttp(url, Map.of("Authorization", "env:SEARCH_TOKEN")))
                    .withConnectTimeout(Duration.ofSeconds(5));
            McpToolSource source = McpToolSource.builder(search, registry)
                    .secrets(variable -> Optional.of("Bearer s3cr3t-" + variable)).build();

            assertThatThrownBy(source::open).isInstanceOf(McpServerException.class)
                    .hasMessageStartingWith("server \"search\" ")
                    .hasMessageNotContaining("s3cr3t");
            assertThat(authorizations).first().isEqualTo("Bearer s3cr3t-SEARCH_TOKEN");
        } finally {
            peer.stop(0);
        }
    }

    /** A clock the test moves by hand. */
    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-09-26T08:00:00Z");

        void advance(Duration step) {
            now = now.plus(step);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
