package io.countersign.tools.mcp.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTokenVaultTest {
    @TempDir
    Path home;

    private static StoredGrant grant(String token) {
        return new StoredGrant("https://mcp.example.org/mcp", "https://auth.example.org", "https://auth.example.org/token",
                "https://mcp.example.org/mcp", "client-1", null, "none", token, "refresh-1", 1_900_000_000L,
                List.of("mcp:read"));
    }

    @Test
    void theFileAndItsFolderAreTheUsersAloneAndHoldTheGrant() throws Exception {
        Path file = home.resolve("config").resolve("countersign").resolve("oauth-tokens.json");
        FileTokenVault vault = new FileTokenVault(file);

        vault.save("docs", grant("access-1"));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                .isEqualTo("rwx------");
        assertThat(new FileTokenVault(file).load("docs")).contains(grant("access-1"));
        assertThat(vault.description()).contains(file.toString(), "0600");

        vault.save("docs", grant("access-2"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(vault.load("docs").orElseThrow().accessToken()).isEqualTo("access-2");
        try (var left = Files.list(file.getParent())) {
            assertThat(left).containsExactly(file); // no temporary file stays behind
        }

        vault.remove("docs");
        assertThat(vault.load("docs")).isEmpty();
    }

    @Test
    void aTokenFileOthersCanReadIsRefusedAndSaysHowToFixIt() throws Exception {
        Path file = home.resolve("oauth-tokens.json");
        FileTokenVault vault = new FileTokenVault(file);
        vault.save("docs", grant("access-1"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> vault.load("docs")).isInstanceOf(OAuthException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("rw-r--r--")
                .hasMessageContaining("chmod 600");
    }
}
