package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WebFetchToolTest {
    private static final OkHttpClient CLIENT = new OkHttpClient();

    private final MockWebServer server = new MockWebServer();
    private final List<String> allowedHosts = new ArrayList<>();
    private final WebFetchTool tool = new WebFetchTool(() -> CLIENT, () -> List.copyOf(allowedHosts));

    @BeforeEach
    void start() throws Exception {
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static MockResponse text(String contentType, String body) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", contentType).body(body).build();
    }

    private static MockResponse redirect(int code, String location) {
        return new MockResponse.Builder().code(code).setHeader("Location", location).build();
    }

    private ToolResult fetch(String url) throws Exception {
        return Calls.execute(tool, null, "url", url);
    }

    /** The same server under another name, so that a redirect can change the host. */
    private String otherHostUrl(String path) {
        String host = server.url("/").host().equals("127.0.0.1") ? "localhost" : "127.0.0.1";
        return server.url(path).newBuilder().host(host).build().toString();
    }

    @Test
    void returnsTheTextOfAPage() throws Exception {
        server.enqueue(text("text/plain; charset=utf-8", "Grüße from the server\n"));

        ToolResult result = fetch(server.url("/hello.txt").toString());

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).isEqualTo("GET " + server.url("/hello.txt") + ": HTTP 200, text/plain;"
                + " charset=utf-8\n\nGrüße from the server\n");
        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getMethod()).isEqualTo("GET");
    }

    @Test
    void decodesTheCharsetTheServerNames() throws Exception {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/plain; charset=iso-8859-1")
                .body(new okio.Buffer().write(new byte[] {'c', 'a', 'f', (byte) 0xE9})).build());

        ToolResult result = fetch(server.url("/").toString());

        assertThat(result.content()).endsWith("\n\ncafé");
    }

    @Test
    void acceptsJson() throws Exception {
        server.enqueue(text("application/problem+json", "{\"title\":\"ok\"}"));

        ToolResult result = fetch(server.url("/api").toString());

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).endsWith("{\"title\":\"ok\"}");
    }

    @Test
    void followsARedirect() throws Exception {
        server.enqueue(redirect(302, "/moved"));
        server.enqueue(text("text/html", "<p>here now</p>"));

        ToolResult result = fetch(server.url("/old").toString());

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).startsWith("GET " + server.url("/moved") + ": HTTP 200")
                .endsWith("<p>here now</p>");
        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getUrl().encodedPath()).isEqualTo("/old");
        assertThat(server.takeRequest(1, TimeUnit.SECONDS).getUrl().encodedPath()).isEqualTo("/moved");
    }

    @Test
    void refusesARedirectToAHostThatIsNotAllowed() throws Exception {
        allowedHosts.add(server.url("/").host());
        String elsewhere = otherHostUrl("/elsewhere");
        server.enqueue(redirect(301, elsewhere));
        server.enqueue(text("text/plain", "must not be fetched"));

        ToolResult result = fetch(server.url("/start").toString());

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).contains("of " + elsewhere + " is not on the allowed hosts list");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void followsARedirectToAnotherAllowedHost() throws Exception {
        allowedHosts.addAll(List.of("localhost", "127.0.0.1"));
        server.enqueue(redirect(307, otherHostUrl("/there")));
        server.enqueue(text("text/plain", "arrived"));

        ToolResult result = fetch(server.url("/here").toString());

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).endsWith("arrived");
    }

    @Test
    void givesUpAfterFiveRedirects() throws Exception {
        for (int i = 0; i <= WebFetchTool.MAX_REDIRECTS; i++) {
            server.enqueue(redirect(302, "/loop"));
        }

        ToolResult result = fetch(server.url("/loop").toString());

        assertThat(result.failed()).isTrue();
        assertThat(result.content())
                .isEqualTo("Error: GET " + server.url("/loop") + " was redirected more than 5 times");
    }

    @Test
    void refusesARedirectWithoutALocation() throws Exception {
        server.enqueue(new MockResponse.Builder().code(302).build());

        ToolResult result = fetch(server.url("/nowhere").toString());

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).contains("returned HTTP 302 without a usable Location to follow");
    }

    @Test
    void reportsAStatusOutsideTwoHundredAsAFailure() throws Exception {
        server.enqueue(new MockResponse.Builder().code(404).status("HTTP/1.1 404 Not Found").body("gone").build());

        ToolResult result = fetch(server.url("/missing").toString());

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: GET " + server.url("/missing") + " returned HTTP 404 Not Found");
    }

    @Test
    void refusesAResponseThatIsNotText() throws Exception {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "image/png")
                .body(new okio.Buffer().write(new byte[] {(byte) 0x89, 'P', 'N', 'G'})).build());

        ToolResult result = fetch(server.url("/logo.png").toString());

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: GET " + server.url("/logo.png")
                + " returned image/png, which is not text");
    }

    @Test
    void refusesAResponseWithoutAContentType() throws Exception {
        server.enqueue(new MockResponse.Builder().body("what am I").build());

        ToolResult result = fetch(server.url("/").toString());

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).endsWith("returned no content type; only text can be fetched");
    }

    @Test
    void readsOnlyTheFirstFiftyThousandBytes() throws Exception {
        server.enqueue(text("text/plain", "x".repeat(WebFetchTool.MAX_BODY_BYTES) + "Z".repeat(1_000)));

        ToolResult result = fetch(server.url("/big").toString());

        assertThat(result.failed()).isFalse();
        assertThat(result.content())
                .contains("\n[the response is longer than 50000 bytes; only its beginning was read]\n")
                .doesNotContain("Z");
    }

    @Test
    void refusesAHostThatIsNotOnTheAllowList() throws Exception {
        allowedHosts.add("docs.example.org");

        ToolResult result = fetch(server.url("/page").toString());

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: host \"" + server.url("/").host() + "\" of "
                + server.url("/page") + " is not on the allowed hosts list (docs.example.org)");
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void comparesAllowedHostsWithoutCase() throws Exception {
        allowedHosts.add(" " + server.url("/").host().toUpperCase() + " ");
        server.enqueue(text("text/plain", "fine"));

        ToolResult result = fetch(server.url("/").toString());

        assertThat(result.failed()).isFalse();
    }

    @Test
    void refusesASchemeOtherThanHttp() throws Exception {
        ToolResult result = fetch("file:///etc/passwd");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: only http and https URLs can be fetched, not file URLs");
    }

    @Test
    void refusesTextThatIsNotAUrl() throws Exception {
        ToolResult result = fetch("the docs page");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: \"the docs page\" is not a valid http or https URL");
    }

    @Test
    void refusesAUrlThatIsNotAString() throws Exception {
        ToolResult result = Calls.execute(tool, null, Calls.json("{\"url\": [\"http://a\"]}"));

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: argument \"url\" must be a string, got array");
    }

    @Test
    void reportsAServerThatCannotBeReached() throws Exception {
        String url = server.url("/").toString();
        server.close();

        ToolResult result = fetch(url);

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: GET " + url + " failed: the connection was refused");
    }

    @Test
    void previewNamesTheRequest() {
        ToolPreview preview = Calls.preview(tool, null, "url", server.url("/page?q=1").toString());

        assertThat(preview.lines()).containsExactly("GET " + server.url("/page?q=1"));
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void previewOfAHostThatIsNotAllowedSaysTheCallWillFail() {
        allowedHosts.add("docs.example.org");

        ToolPreview preview = Calls.preview(tool, null, "url", server.url("/page").toString());

        assertThat(preview.lines()).singleElement().asString().startsWith("this call will fail: host ");
    }

    @Test
    void needsApprovalUntilAnAdminSwitchesItOff() {
        assertThat(ToolSettings.defaults().requiresApproval(tool)).isTrue();
        assertThat(ToolSettings.defaults().withApprovalSetting(WebFetchTool.NAME, false).requiresApproval(tool))
                .isFalse();
    }
}
