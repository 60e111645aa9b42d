package io.countersign.console.settings;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Messages;
import io.countersign.service.RecordedChange;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class HistoryItemTest {
    private static final Messages MESSAGES = Messages.forLocale(Locale.ENGLISH);
    private static final Instant TIME = Instant.parse("2026-11-29T14:05:09Z");

    private static HistoryItem item(String key, String oldValue, String newValue) {
        return HistoryItem.of(new RecordedChange(7, TIME, "ana", key, oldValue, newValue), MESSAGES,
                ZoneOffset.UTC);
    }

    @Test
    void aToolSwitchedOffSaysWhoWhenAndFromWhatToWhat() {
        assertThat(item("tool_enabled:fs_list", "true", "false"))
                .isEqualTo(new HistoryItem(7, "Nov 29 2026, 14:05:09", "ana", "fs_list · enabled", "on → off"));
    }

    @Test
    void anApprovalNeverSetBeforeChangesFromTheDefault() {
        assertThat(item("approval:web_fetch", null, "false").change()).isEqualTo("default → no approval");
    }

    @Test
    void aServerDeclarationNamesTheServer() {
        HistoryItem item = item("server_approval_bound:docs", "true", "false");

        assertThat(item.setting()).isEqualTo("server docs · approval");
        assertThat(item.change()).isEqualTo("needs approval → no approval");
    }

    @Test
    void aToolsOwnDeclarationNamesTheToolAndItsReturnToTheServers() {
        HistoryItem declared = item("tool_approval_bound:files.write_file", null, "true");
        HistoryItem followsAgain = item("tool_approval_bound:files.write_file", "true", null);

        assertThat(declared.setting()).isEqualTo("files.write_file · its own declaration");
        assertThat(declared.change()).isEqualTo("follows its server → needs approval");
        assertThat(followsAgain.change()).isEqualTo("needs approval → follows its server");
    }

    @Test
    void aNewUserWithoutRolesSaysSo() {
        HistoryItem item = item("user_roles:kim", null, "");

        assertThat(item.setting()).isEqualTo("kim · roles");
        assertThat(item.change()).isEqualTo("new user → no role");
    }

    @Test
    void rolesAreListedWithSpaces() {
        assertThat(item("user_roles:kim", "operator", "admin,operator").change())
                .isEqualTo("operator → admin, operator");
    }

    @Test
    void aKindOfANewerVersionIsShownAsStored() {
        HistoryItem item = item("tool_budget:web_fetch", "3", "5");

        assertThat(item.setting()).isEqualTo("tool_budget:web_fetch");
        assertThat(item.change()).isEqualTo("3 → 5");
    }
}
