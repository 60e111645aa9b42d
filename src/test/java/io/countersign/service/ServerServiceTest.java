package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.access.SettingChange;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerServiceTest {
    private static final ServerForm FILES = ServerForm.stdio("/usr/bin/node", List.of("server.js", "/srv/work"));

    @TempDir
    Path folder;
    Store store;
    Actor admin;
    ServerService servers;

    @BeforeEach
    void open() {
        store = Store.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")));
        admin = store.users().ensureUser("ana");
        servers = new DefaultServerService(store.servers(), variable -> Optional.empty(), store.users());
    }

    @AfterEach
    void close() {
        store.close();
    }

    private McpServerRecord saved(ServerResult result) {
        assertThat(result).isInstanceOf(ServerResult.Saved.class);
        return ((ServerResult.Saved) result).server();
    }

    @Test
    void aNewServerWithoutADeclarationIsNotDeclaredAndTakesTheDefaults() {
        McpServerRecord files = saved(servers.add(admin, "files", FILES));

        assertThat(files).isEqualTo(McpServerRecord.stdio("files", "/usr/bin/node", List.of("server.js", "/srv/work")));
        assertThat(files.declaration()).isEqualTo(ApprovalDeclaration.NOT_DECLARED);
        assertThat(store.settings().current().serverApprovalBound("files")).isFalse();
        assertThat(servers.list(admin)).containsExactly(files);
    }

    @Test
    void aServerDeclaredApprovalBoundIsSoInTheSettingsTheApprovalRuleReads() {
        servers.add(admin, "files", FILES.withApprovalBound(true));

        assertThat(store.settings().current().serverDeclaration("files")).isEqualTo(ApprovalDeclaration.APPROVAL_BOUND);
        assertThat(servers.list(admin).get(0).declaration()).isEqualTo(ApprovalDeclaration.APPROVAL_BOUND);
    }

    @Test
    void aServerDeclaredNotApprovalBoundIsSoInTheSettingsTheApprovalRuleReads() {
        servers.add(admin, "files", FILES.withApprovalBound(false));

        assertThat(store.settings().current().serverApprovalBound("files")).isFalse();
        assertThat(servers.list(admin).get(0).declaration()).isEqualTo(ApprovalDeclaration.NOT_APPROVAL_BOUND);
    }

    @Test
    void addingATakenNameChangesNothing() {
        servers.add(admin, "files", FILES);

        assertThat(servers.add(admin, "files", ServerForm.streamableHttp("https://mcp.example.org/mcp")))
                .isEqualTo(new ServerResult.NameTaken("files"));
        assertThat(servers.list(admin)).extracting(McpServerRecord::transport)
                .containsExactly(new McpServerRecord.Stdio("/usr/bin/node", List.of("server.js", "/srv/work"),
                        Map.of()));
    }

    @Test
    void editChangesOnlyTheGivenFieldsAndRecordsWhoDidIt() {
        servers.add(admin, "files", FILES);
        ServerForm edit = new ServerForm(null, null, Map.of("LOG_LEVEL", "debug"), null, null, false, false,
                "workspace", "sourceCode", Duration.ofSeconds(90), null);

        McpServerRecord files = saved(servers.edit(admin, "files", edit));

        assertThat(files).isEqualTo(new McpServerRecord("files", new McpServerRecord.Stdio("/usr/bin/node",
                List.of("server.js", "/srv/work"), Map.of("LOG_LEVEL", "debug")), false, ApprovalDeclaration.NOT_APPROVAL_BOUND, "workspace",
                DataClass.SOURCE_CODE, Duration.ofSeconds(90), McpServerRecord.DEFAULT_CONNECT_TIMEOUT));
        assertThat(servers.list(admin)).containsExactly(files);
        assertThat(store.settings().changes(10)).extracting(SettingChange::actor, SettingChange::settingKey)
                .startsWith(tuple("ana", "server_approval_bound:files"),
                        tuple("ana", "server:files"));
    }

    @Test
    void aUrlSwitchesTheServerToStreamableHttp() {
        servers.add(admin, "docs", FILES);

        McpServerRecord docs = saved(servers.edit(admin, "docs", ServerForm.empty().withStreamableHttp(
                "https://mcp.example.org/mcp", Map.of("Authorization", "env:DOCS_TOKEN"))));

        assertThat(docs.transport()).isEqualTo(new McpServerRecord.StreamableHttp(
                URI.create("https://mcp.example.org/mcp"), Map.of("Authorization", "env:DOCS_TOKEN")));
    }

    @Test
    void unknownNamesAreAnsweredAsSuch() {
        assertThat(servers.edit(admin, "nope", FILES)).isEqualTo(new ServerResult.NoSuchServer("nope"));
        assertThat(servers.remove(admin, "nope")).isEqualTo(new ServerResult.NoSuchServer("nope"));
        assertThat(servers.test(admin, "nope")).isEqualTo(new ServerCheck.NoSuchServer("nope"));
    }

    @Test
    void removedServerIsGoneAndItsDeclarationWithIt() {
        servers.add(admin, "files", FILES.withApprovalBound(true));

        assertThat(servers.remove(admin, "files")).isInstanceOf(ServerResult.Removed.class);
        assertThat(servers.list(admin)).isEmpty();
        assertThat(store.settings().current().serverDeclaration("files")).isEqualTo(ApprovalDeclaration.NOT_DECLARED);
    }

    @Test
    void aServerNeedsACommandOrAUrl() {
        assertThatThrownBy(() -> servers.add(admin, "files", ServerForm.empty().withApprovalBound(false)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server \"files\" needs a command to start (stdio) or a URL (Streamable HTTP)");
    }

    @Test
    void aBlankCommandIsRefused() {
        assertThatThrownBy(() -> servers.add(admin, "files", ServerForm.stdio(" ", List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server \"files\" needs a command to start");
    }

    @Test
    void aUrlThatIsNotHttpIsRefused() {
        assertThatThrownBy(() -> servers.add(admin, "docs", ServerForm.streamableHttp("ftp://mcp.example.org/")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server \"docs\" needs an absolute http or https URL, got ftp://mcp.example.org/");
    }

    @Test
    void somethingThatIsNoUrlIsRefused() {
        assertThatThrownBy(() -> servers.add(admin, "docs", ServerForm.streamableHttp("http://exa mple.org")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the URL of server \"docs\" is not a URL: ");
    }

    @Test
    void aSecretGivenAsAValueIsRefusedAndNothingIsSaved() {
        ServerForm form = ServerForm.empty().withStreamableHttp("https://mcp.example.org/mcp",
                Map.of("Authorization", "Bearer s3cr3t"));

        assertThatThrownBy(() -> servers.add(admin, "docs", form))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("header \"Authorization\" of server \"docs\" carries a secret: give a reference like"
                        + " env:NAME instead of the value, so that the secret is never stored")
                .hasMessageNotContaining("s3cr3t");
        assertThat(servers.list(admin)).isEmpty();
    }

    @Test
    void aSecretEnvironmentValueIsRefusedOnEditToo() {
        servers.add(admin, "files", FILES);

        assertThatThrownBy(() -> servers.edit(admin, "files", ServerForm.empty().withStdio(null, null,
                Map.of("GITHUB_TOKEN", "ghp_123"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("environment variable \"GITHUB_TOKEN\" of server \"files\" carries a secret");
    }

    @Test
    void headersOnAStdioServerAreRefused() {
        servers.add(admin, "files", FILES);

        assertThatThrownBy(() -> servers.edit(admin, "files", ServerForm.empty().withStreamableHttp(null,
                Map.of("X-Team", "editors"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server \"files\" is started as a command (stdio); headers need a URL to reach it over"
                        + " Streamable HTTP instead");
    }

    @Test
    void aServerThatCannotStartIsReportedWithoutSavingAnything() {
        servers.add(admin, "broken", ServerForm.stdio(folder.resolve("no-such-program").toString(), List.of()));
        List<SettingChange> before = store.settings().changes(10);

        ServerCheck check = servers.test(admin, "broken");

        assertThat(check).isInstanceOfSatisfying(ServerCheck.Unreachable.class, unreachable -> {
            assertThat(unreachable.problem()).isEqualTo("unreachable");
            assertThat(unreachable.message()).contains("broken");
        });
        assertThat(store.settings().changes(10)).isEqualTo(before);
    }

    @Test
    void onlyAdminsManageServers() {
        Actor supervisor = store.users().add("sam", Set.of(Role.SUPERVISOR), admin);

        assertThatThrownBy(() -> servers.add(supervisor, "files", FILES))
                .isInstanceOf(NotPermittedException.class)
                .hasMessage("sam (supervisor) may not change servers; that needs the role admin");
        assertThat(servers.list(admin)).isEmpty();
    }
}
