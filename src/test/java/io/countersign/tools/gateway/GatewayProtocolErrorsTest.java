package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every malformed input a host could send, over real HTTP to {@code countersign gateway --listen} and over real
 * stdio to {@code countersign gateway} (child processes in front of the reference servers): each answer is a
 * JSON-RPC error with the code JSON-RPC gives the fault (or the plain answer a notification gets), and no body
 * carries a Java class name, a stack trace, an exception or the JDK's version.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayProtocolErrorsTest {
    /** A package and a class ({@code io.modelcontextprotocol.spec.McpError}), or anything a stack trace prints. */
    private static final Pattern INTERNALS = Pattern.compile("[a-z]+\\.[a-z]+\\.[A-Z]|stackTrace|Exception|"
            + "\\bat [\\w.$]+\\(|" + Pattern.quote(System.getProperty("java.version")) + "|java\\.[a-z]+\\.");
    private static final String JSON = "application/json";
    private static final String BOTH = "application/json, text/event-stream";
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"prober\","
            + "\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    @TempDir
    static Path folder;
    private GatewayTestBed bed;
    private HttpGatewayProcess listener;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void aGatewayListening() throws Exception {
        bed = new GatewayTestBed(folder);
        listener = bed.listen();
        // the fronted servers' tools are offered once a host sees them
        GatewayHost.start(listener.transport(), GatewayHost.CLIENT, new ArrayList<>(), new ArrayList<>(),
                List.of("echo", "disk.write_file")).closeGracefully();
    }

    @AfterAll
    void stop() throws Exception {
        if (bed != null) {
            bed.close();
        }
    }

    @Test
    void everyMalformedRequestOverHttpGetsTheRightCodeAndACleanBody() throws Exception {
        String session = initialize();
        String unknown = "0b1e5c1e-0000-4000-8000-000000000000";
        SoftAssertions softly = new SoftAssertions();

        expect(softly, "not JSON", post("hello, gateway", session), 400, -32700);
        expect(softly, "an empty body", post("", session), 400, -32700);
        expect(softly, "truncated JSON", post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/li", session), 400,
                -32700);
        expect(softly, "two values", post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}{}", session), 400,
                -32700);
        expect(softly, "an array of garbage", post("[1, \"two\", {\"three\": null}]", session), 400, -32600);
        expect(softly, "a batch", post("[{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\","
                + "\"id\":4,\"method\":\"tools/list\"}]", session), 400, -32600);
        expect(softly, "a string", post("\"ping\"", session), 400, -32600);
        expect(softly, "wrong jsonrpc", post("{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}", session), 400,
                -32600);
        expect(softly, "no jsonrpc", post("{\"id\":5,\"method\":\"ping\"}", session), 400, -32600);
        expect(softly, "no method", post("{\"jsonrpc\":\"2.0\",\"id\":6}", session), 400, -32600);
        expect(softly, "a method that is not a name", post("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":7}", session),
                400, -32600);
        expect(softly, "an id that is an object", post("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
                session), 400, -32600);
        expect(softly, "params that are not an object", post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":"
                + "\"tools/list\",\"params\":[1]}", session), 400, -32602);
        expect(softly, "a call without a tool name", post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\","
                + "\"params\":{\"arguments\":{}}}", session), 400, -32602);
        expect(softly, "arguments that are not an object", post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":"
                + "\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":\"hi\"}}", session), 400, -32602);
        expect(softly, "initialize without params", post("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":"
                + "\"initialize\"}", null), 400, -32602);
        expect(softly, "a response to nothing", post("{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}", session),
                400, -32600);
        expect(softly, "an unknown session", post(ping(10), unknown), 404, -32001);
        expect(softly, "a missing session", post(ping(11), null), 400, -32600);
        expect(softly, "a call before initialize", post(call(12, "echo"), null), 400, -32600);
        expect(softly, "a DELETE of an unknown session", request("DELETE", null, unknown).build(), 404, -32001);
        expect(softly, "a DELETE without a session", request("DELETE", null, null).build(), 400, -32600);
        expect(softly, "a GET without Accept", request("GET", null, session).build(), 406, -32600);
        expect(softly, "a GET of an unknown session", request("GET", null, unknown)
                .header("Accept", "text/event-stream").build(), 404, -32001);
        expect(softly, "a POST that accepts only JSON", request("POST", ping(13), session).header("Content-Type",
                JSON).header("Accept", JSON).build(), 406, -32600);
        expect(softly, "a wrong content type", request("POST", ping(14), session).header("Content-Type",
                "text/plain").header("Accept", BOTH).build(), 415, -32600);
        expect(softly, "no content type", request("POST", ping(14), session).header("Accept", BOTH).build(), 415,
                -32600);
        expect(softly, "an oversize body", post("{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"ping\",\"params\":"
                + "{\"pad\":\"" + "x".repeat(HostMessage.MAX_BYTES) + "\"}}", session), 413, -32600);
        expect(softly, "a PUT", request("PUT", "{}", session).build(), 405, -32600);
        expect(softly, "another path", HttpRequest.newBuilder(listener.url().resolve("/admin"))
                .header("Authorization", listener.authorization()).build(), 404, -32600);
        expect(softly, "a foreign Origin", request("POST", INITIALIZE, null).header("Content-Type", JSON)
                .header("Accept", BOTH).header("Origin", "http://evil.example").build(), 403, -32600);
        expect(softly, "no token", HttpRequest.newBuilder(listener.url()).header("Content-Type", JSON)
                .header("Accept", BOTH).POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(), 401, -32600);
        expect(softly, "an unknown method", post("{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"tools/frobnicate\"}",
                session), 200, -32601);
        JsonNode unknownTool = expect(softly, "an unknown tool", post(call(17, "no_such_tool"), session), 200,
                -32602);
        softly.assertThat(unknownTool.path("error").path("message").asText()).as("an unknown tool")
                .isEqualTo("Unknown tool: no_such_tool");
        softly.assertAll();

        // after all that, the session still serves
        JsonNode echo = answer(http.send(post(call(18, "echo"), session), HttpResponse.BodyHandlers.ofString())
                .body());
        assertThat(echo.path("result").path("isError").asBoolean()).isFalse();
    }

    @Test
    void aRequestTheServerCannotParseGetsACleanBodyToo() throws Exception {
        for (String request : List.of("GARBAGE / HTTP/9.9\r\n\r\n", "GET /mcp HTTP/1.1\r\nHost: "
                + listener.url().getAuthority() + "\r\nBad header line\r\n\r\n")) {
            String answer = raw(request);

            // an HTTP version Jetty does not speak is answered without a status line
            assertThat(answer).as(request).containsPattern("HTTP 40\\d|HTTP 505").contains("\"code\":-32600");
            assertClean(answer);
        }
    }

    @Test
    void aForeignHostHeaderGets421AndACleanBody() throws Exception {
        // the JDK's client does not let a caller set Host
        String answer = raw("POST /mcp HTTP/1.1\r\nHost: evil.example\r\nAuthorization: " + listener.authorization()
                + "\r\nContent-Type: " + JSON + "\r\nAccept: " + BOTH + "\r\nContent-Length: "
                + INITIALIZE.length() + "\r\nConnection: close\r\n\r\n" + INITIALIZE);

        assertThat(answer).startsWith("HTTP/1.1 421");
        assertClean(answer);
        assertThat(answer(answer.substring(answer.indexOf("\r\n\r\n") + 4)).path("error").path("code").asInt())
                .isEqualTo(-32600);
    }

    /** The whole answer, status line and headers included, to bytes written on a socket of their own. */
    private String raw(String request) throws IOException {
        URI url = listener.url();
        try (Socket socket = new Socket(url.getHost(), url.getPort())) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void everyMalformedLineOverStdioGetsTheRightCodeAndACleanLine() throws Exception {
        Process gateway = new ProcessBuilder(stdioCommand()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (Writer in = new OutputStreamWriter(gateway.getOutputStream(), StandardCharsets.UTF_8);
             BufferedReader out = new BufferedReader(new InputStreamReader(gateway.getInputStream(),
                     StandardCharsets.UTF_8))) {
            Lines lines = new Lines(in, out);
            SoftAssertions softly = new SoftAssertions();

            expect(softly, "not JSON", lines.answer("hello, gateway"), -32700);
            expect(softly, "truncated JSON", lines.answer("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/li"),
                    -32700);
            expect(softly, "two values", lines.answer("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}{}"), -32700);
            expect(softly, "an array of garbage", lines.answer("[1, \"two\", {\"three\": null}]"), -32600);
            expect(softly, "a batch", lines.answer("[{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]"), -32600);
            expect(softly, "an empty object", lines.answer("{}"), -32600);
            expect(softly, "wrong jsonrpc", lines.answer("{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}"),
                    -32600);
            expect(softly, "no method", lines.answer("{\"jsonrpc\":\"2.0\",\"id\":6}"), -32600);
            expect(softly, "an id that is an object", lines.answer("{\"jsonrpc\":\"2.0\",\"id\":[],\"method\":"
                    + "\"ping\"}"), -32600);
            expect(softly, "params that are not an object", lines.answer("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":"
                    + "\"tools/list\",\"params\":\"all\"}"), -32602);
            expect(softly, "a call before initialize", lines.answer(call(8, "echo")), -32600);
            softly.assertThat(lines.answer(ping(9)).path("result").isObject()).as("a ping before initialize")
                    .isTrue();
            expect(softly, "initialize without params", lines.answer("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":"
                    + "\"initialize\"}"), -32602);

            softly.assertThat(lines.answer(INITIALIZE).path("result").path("serverInfo").path("name").asText())
                    .isEqualTo("countersign-gateway");
            lines.send(INITIALIZED);
            expect(softly, "an unknown method", lines.answer("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":"
                    + "\"tools/frobnicate\"}"), -32601);
            expect(softly, "a call without a tool name", lines.answer("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":"
                    + "\"tools/call\",\"params\":{}}"), -32602);
            JsonNode unknownTool = lines.answer(call(13, "no_such_tool"));
            expect(softly, "an unknown tool", unknownTool, -32602);
            softly.assertThat(unknownTool.path("error").path("message").asText()).as("an unknown tool")
                    .isEqualTo("Unknown tool: no_such_tool");
            softly.assertAll();
        } finally {
            gateway.destroy();
            gateway.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private List<String> stdioCommand() throws Exception {
        List<String> command = new ArrayList<>(List.of(GatewayHost.javaCommand()));
        command.addAll(bed.gatewayArguments());
        return command;
    }

    /** The host's side of a stdio connection: a line out, the answer in, every line checked clean. */
    private record Lines(Writer in, BufferedReader out) {
        void send(String line) throws IOException {
            in.write(line + "\n");
            in.flush();
        }

        /** The next answer, past the notifications the gateway sends meanwhile (its tools' list changing). */
        JsonNode answer(String line) throws Exception {
            send(line);
            while (true) {
                String answer = CompletableFuture.supplyAsync(this::next).get(60, TimeUnit.SECONDS);
                assertThat(answer).as("the answer to " + line).isNotNull();
                assertClean(answer);
                JsonNode message = Json.mapper().readTree(answer);
                if (message.has("id")) {
                    return message;
                }
            }
        }

        private String next() {
            try {
                return out.readLine();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Opens a session as a host does, and says it is initialized. */
    private String initialize() throws Exception {
        HttpResponse<String> initialized = http.send(post(INITIALIZE, null), HttpResponse.BodyHandlers.ofString());
        String session = initialized.headers().firstValue(HttpGatewayListener.SESSION_HEADER).orElseThrow();
        assertThat(http.send(post(INITIALIZED, session), HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(202);
        return session;
    }

    /** Sends the request; checks its status, that the body is clean and its error's code. */
    private JsonNode expect(SoftAssertions softly, String what, HttpRequest request, int status, int code)
            throws Exception {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        softly.assertThat(response.statusCode()).as(what + ": the status").isEqualTo(status);
        if (status == 401) {
            softly.assertThat(response.headers().firstValue("WWW-Authenticate")).as(what).hasValueSatisfying(
                    challenge -> assertThat(challenge).startsWith("Bearer"));
        }
        assertClean(response.body());
        JsonNode answer = answer(response.body());
        expect(softly, what, answer, code);
        return answer;
    }

    private static void expect(SoftAssertions softly, String what, JsonNode answer, int code) {
        softly.assertThat(answer.path("jsonrpc").asText()).as(what + ": jsonrpc").isEqualTo("2.0");
        softly.assertThat(answer.path("error").path("code").asInt()).as(what + ": the code").isEqualTo(code);
        softly.assertThat(answer.path("error").path("message").asText()).as(what + ": the message").isNotBlank();
    }

    /** The JSON-RPC message of a body: JSON itself, or the data of the one event of a stream. */
    private static JsonNode answer(String body) throws IOException {
        String json = body.lines().filter(line -> line.startsWith("data:")).map(line -> line.substring(5).strip())
                .filter(line -> !line.isEmpty()).findFirst().orElse(body);
        return Json.mapper().readTree(json);
    }

    private static void assertClean(String body) {
        assertThat(body).as("what left the process").doesNotContainPattern(INTERNALS);
    }

    private HttpRequest post(String body, String session) {
        return request("POST", body, session).header("Content-Type", JSON).header("Accept", BOTH).build();
    }

    private HttpRequest.Builder request(String method, String body, String session) {
        HttpRequest.Builder request = HttpRequest.newBuilder(listener.url())
                .header("Authorization", listener.authorization())
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header(HttpGatewayListener.SESSION_HEADER, session);
        }
        return request;
    }

    private static String ping(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
    }

    private static String call(int id, String tool) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{\"message\":\"hi\"}}}";
    }
}
