package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.McpServerRecord;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A server record is checked when it is made, with a message that names the server and the field. */
class McpServerRecordTest {
    private static final URI URL = URI.create("https://tools.example.org/mcp");

    private static McpServerRecord http(Map<String, String> headers) {
        return McpServerRecord.streamableHttp("search", URL)
                .withTransport(new McpServerRecord.StreamableHttp(URL, headers));
    }

    private static McpServerRecord stdio(Map<String, String> env) {
        return McpServerRecord.stdio("files", "node", List.of("server.js"))
                .withTransport(new McpServerRecord.Stdio("node", List.of("server.js"), env));
    }

    @Test
    void aNewServerIsEnabledNotDeclaredAndInItsOwnGroup() {
        McpServerRecord record = McpServerRecord.stdio("files", "node", List.of("server.js"));

        assertThat(record.enabled()).isTrue();
        assertThat(record.declaration()).isEqualTo(ApprovalDeclaration.NOT_DECLARED);
        assertThat(record.group()).isEqualTo("files");
        assertThat(record.dataClass()).isEqualTo(DataClass.SECRET_ADJACENT);
        assertThat(record.callTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(record.connectTimeout()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void theRecordsDeclarationIsWhatTheToolSettingsSay() {
        McpServerRecord record = McpServerRecord.stdio("files", "node", List.of()).withApprovalBound(false);

        assertThat(record.declareIn(ToolSettings.defaults()).serverDeclaration("files"))
                .isEqualTo(ApprovalDeclaration.NOT_APPROVAL_BOUND);
    }

    @Test
    void anUndeclaredRecordLeavesItsServerUndeclaredInTheToolSettings() {
        McpServerRecord record = McpServerRecord.stdio("files", "node", List.of());
        ToolSettings declared = ToolSettings.defaults().withServerApprovalBound("files", true);

        assertThat(record.declareIn(declared).serverDeclaration("files")).isEqualTo(ApprovalDeclaration.NOT_DECLARED);
        assertThat(record.declareIn(declared).serverApprovalBound("files")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Files", "1files", "files.local", "files server", "a-name-that-is-far-longer-than-32"})
    void aNameOutsideThePatternIsRefused(String name) {
        assertThatThrownBy(() -> McpServerRecord.stdio(name, "node", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server name \"" + name + "\" must match [a-z][a-z0-9_-]* and be 1 to 32 characters long");
    }

    @Test
    void aStdioServerNeedsACommand() {
        assertThatThrownBy(() -> McpServerRecord.stdio("files", " ", List.of()))
                .hasMessage("server \"files\" needs a command to start");
    }

    @Test
    void aGroupMustBeAToolGroupName() {
        assertThatThrownBy(() -> McpServerRecord.stdio("files", "node", List.of()).withGroup("Remote Files"))
                .hasMessage("group of server \"files\" \"Remote Files\" must match [a-z][a-z0-9_.-]* and be 1 to 64"
                        + " ASCII characters long");
    }

    @Test
    void aTimeoutMustBePositiveAndBounded() {
        McpServerRecord record = McpServerRecord.stdio("files", "node", List.of());

        assertThatThrownBy(() -> record.withCallTimeout(Duration.ZERO))
                .hasMessage("the call timeout of server \"files\" must be more than 0 and at most 3600 s, got PT0S");
        assertThatThrownBy(() -> record.withConnectTimeout(Duration.ofMinutes(10)))
                .hasMessage("the connect timeout of server \"files\" must be more than 0 and at most 300 s, got PT10M");
    }

    @Test
    void anHttpServerNeedsAnAbsoluteHttpUrl() {
        assertThatThrownBy(() -> McpServerRecord.streamableHttp("search", URI.create("ftp://tools.example.org/")))
                .hasMessage("server \"search\" needs an absolute http or https URL, got ftp://tools.example.org/");
    }

    @Test
    void aUrlMustNotCarryCredentials() {
        assertThatThrownBy(() -> McpServerRecord.streamableHttp("search",
                URI.create("https://user:pw@tools.example.org/mcp")))
                .hasMessage("the URL of server \"search\" must not carry credentials; put them in a header with a"
                        + " reference like env:NAME");
    }

    @Test
    void aCredentialHeaderMustBeAReferenceNotTheSecret() {
        assertThatThrownBy(() -> http(Map.of("Authorization", "Bearer abc123")))
                .hasMessage("header \"Authorization\" of server \"search\" carries a secret: give a reference like"
                        + " env:NAME instead of the value, so that the secret is never stored");
    }

    @Test
    void aCredentialHeaderMayReferenceAnEnvironmentVariable() {
        McpServerRecord record = http(Map.of("Authorization", "env:SEARCH_TOKEN", "Accept-Language", "de"));

        assertThat(((McpServerRecord.StreamableHttp) record.transport()).headers())
                .containsEntry("Authorization", "env:SEARCH_TOKEN");
    }

    @Test
    void aMalformedReferenceIsRefused() {
        assertThatThrownBy(() -> http(Map.of("X-Api-Key", "env:1KEY")))
                .hasMessage("header \"X-Api-Key\" of server \"search\" must reference a variable like env:NAME, with"
                        + " NAME matching [A-Za-z_][A-Za-z0-9_]*");
    }

    @Test
    void aHeaderTheClientSetsItselfIsRefused() {
        assertThatThrownBy(() -> http(Map.of("Mcp-Session-Id", "42")))
                .hasMessage("header \"Mcp-Session-Id\" of server \"search\" is set by the client itself and cannot be"
                        + " configured");
    }

    @Test
    void aHeaderValueMustNotBreakTheLine() {
        assertThatThrownBy(() -> http(Map.of("X-Team", "a\r\nHost: evil")))
                .hasMessage("header \"X-Team\" of server \"search\" must not contain line breaks or NUL characters");
    }

    @Test
    void aSecretEnvironmentVariableMustBeAReference() {
        assertThatThrownBy(() -> stdio(Map.of("GITHUB_TOKEN", "ghp_abc")))
                .hasMessage("environment variable \"GITHUB_TOKEN\" of server \"files\" carries a secret: give a"
                        + " reference like env:NAME instead of the value, so that the secret is never stored");
    }

    @Test
    void anEnvironmentVariableNeedsAValidName() {
        assertThatThrownBy(() -> stdio(Map.of("LOG-LEVEL", "debug")))
                .hasMessage("environment variable \"LOG-LEVEL\" of server \"files\" must match [A-Za-z_][A-Za-z0-9_]*");
    }
}
