package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import io.countersign.tools.mcp.OAuthProtectedServer;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code servers add --oauth} and {@code servers test} as a person runs them, in processes of their own, against a
 * MockWebServer that is an MCP server wanting OAuth and its authorization server.
 */
class ServerOAuthCommandsTest {
    private static final Pattern SIGN_IN = Pattern.compile("open this address in a browser: (\\S+)");
    @TempDir
    Path folder;
    CommandProcess countersign;
    Path config;
    private OAuthProtectedServer server;

    @BeforeEach
    void start() throws Exception {
        countersign = new CommandProcess(folder, folder.resolve("countersign.db").toString());
        config = Files.createDirectories(folder.resolve("config"));
        server = OAuthProtectedServer.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String base() {
        return server.base();
    }

    private static void assertOneLineError(CommandProcess.Result result, int exitCode, String contains) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines().toList()).as("stderr").singleElement().asString().contains(contains);
        assertThat(result.out()).isEmpty();
    }

    @Test
    void serversAddWithOauthAndABadUrlExitsTwoNamingTheUrlAndSavesNothing() {
        assertOneLineError(countersign.run("servers", "add", "docs", "--url", "ftp://mcp.example.org/mcp", "--oauth",
                "--approval-bound", "true"), Cli.BAD_USAGE, "needs an absolute http or https URL, got"
                + " ftp://mcp.example.org/mcp");
        assertThat(countersign.run("servers").out()).isEqualToIgnoringWhitespace("[]");
    }

    @Test
    void oauthNeedsAUrlAndNoAuthorizationHeaderOfItsOwn() {
        assertOneLineError(countersign.runHere("servers", "add", "files", "--command", "npx", "--oauth",
                "--approval-bound", "true"), Cli.BAD_USAGE, "--oauth needs --url");
        assertOneLineError(countersign.runHere("servers", "add", "docs", "--url", "https://mcp.example.org/mcp",
                "--header", "Authorization=env:DOCS_TOKEN", "--oauth", "--approval-bound", "true"), Cli.BAD_USAGE,
                "--oauth and an Authorization header exclude each other");
        assertOneLineError(countersign.runHere("servers", "add", "docs", "--url", "https://mcp.example.org/mcp",
                "--oauth-client-id", "abc", "--approval-bound", "true"), Cli.BAD_USAGE,
                "--oauth-client-id goes with --oauth");
    }

    @Test
    void serversAddWithOauthPrintsTheSignInAddressAndTheTokenFileServesTheNextCommand() throws Exception {
        Map<String, String> environment = Map.of("XDG_CONFIG_HOME", config.toString(), "COUNTERSIGN_OAUTH_STORE", "file");
        CommandProcess.Running adding = countersign.start(environment, "servers", "add", "docs", "--url",
                base() + "/mcp", "--oauth", "--approval-bound", "true");
        String[] address = new String[1];
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Matcher printed = SIGN_IN.matcher(Files.readString(adding.err(), StandardCharsets.UTF_8));
            address[0] = printed.find() ? printed.group(1) : null;
            return address[0] != null;
        });
        // the person's browser: the authorization server redirects to the command's loopback listener
        HttpResponse<String> page = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.ALWAYS).build()
                .send(HttpRequest.newBuilder(URI.create(address[0])).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(page.uri().toString()).startsWith("http://127.0.0.1:");
        assertThat(page.body()).contains("Signed in");

        CommandProcess.Result added = adding.await();
        assertThat(added.exitCode()).as(added.err()).isZero();
        assertThat(added.json().path("name").asText()).isEqualTo("docs");
        Path file = config.resolve("countersign").resolve("oauth-tokens.json");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).contains("token-0", "cli-client");
        assertThat(countersign.run("servers", "list").out()).doesNotContain("token-0");

        CommandProcess.Result tested = countersign.start(environment, "servers", "test", "docs").await();
        assertThat(tested.exitCode()).as(tested.err()).isZero();
        assertThat(tested.json().path("oauthTokensIn").asText()).contains(file.toString(), "0600");
        assertThat(server.authorizations()).as("the stored token was used: no second sign-in").hasValue(1);
    }
}
