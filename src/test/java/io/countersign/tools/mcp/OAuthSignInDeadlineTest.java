package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.tool.ImportReport;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.tools.mcp.oauth.FileTokenVault;
import io.countersign.tools.mcp.oauth.OAuthClientSettings;
import io.countersign.tools.mcp.oauth.OAuthSetup;
import io.countersign.tools.mcp.oauth.SignInBrowser;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sign-in takes as long as the person takes: the handshake's deadline stops meanwhile. Against a MockWebServer
 * that is an MCP server wanting OAuth and its authorization server.
 */
class OAuthSignInDeadlineTest {
    @TempDir
    Path folder;
    private OAuthProtectedServer server;

    @BeforeEach
    void start() throws Exception {
        server = OAuthProtectedServer.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String base() {
        return server.base();
    }


    @Test
    void aSignInLongerThanTheConnectTimeoutDoesNotFailTheHandshake() {
        SignInBrowser slowPerson = url -> {
            try {
                Thread.sleep(2_500); // reading the consent page
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ConformanceSignIn.following().open(url);
        };
        OAuthSetup oauth = new OAuthSetup(OAuthClientSettings.defaults(),
                new FileTokenVault(folder.resolve("oauth-tokens.json")), slowPerson);
        McpServerRecord record = McpServerRecord.streamableHttp("docs", URI.create(base() + "/mcp"))
                .withConnectTimeout(Duration.ofSeconds(1));

        try (McpToolSource source = McpToolSource.builder(record, new ToolRegistry()).oauth(oauth).build()) {
            ImportReport report = source.open();

            assertThat(report.registered()).isEmpty();
            assertThat(server.authorizations()).hasValue(1);
            assertThat(source.credentialStore()).hasValueSatisfying(store -> assertThat(store)
                    .contains(folder.resolve("oauth-tokens.json").toString()));
        }
    }
}
