package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.access.ToolApprovalRule;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.access.UnattendedToolFilter;
import io.countersign.engine.port.ToolSettingsSource;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnattendedToolFilterTest {
    private final ToolRegistry registry = ToolRegistry.of(TestTools.read("fs_list"), TestTools.write("fs_write"),
            TestTools.read("fs_read"), new TestTools.Input("ask_user"), new TestTools.Marked("peek"),
            new TestTools.Remote("srv.write", "srv", ToolEffect.WRITE),
            new TestTools.Remote("other.read", "other", ToolEffect.READ),
            new TestTools.Configurable("web_fetch", ToolEffect.READ));

    private UnattendedToolFilter filter(ToolSettings settings) {
        return new UnattendedToolFilter(registry, new ToolApprovalRule(ToolSettingsSource.fixed(settings)));
    }

    @Test
    void keepsTheGivenOrder() {
        assertThat(filter(ToolSettings.defaults()).unattended(List.of("fs_read", "fs_list")))
                .containsExactly("fs_read", "fs_list");
    }

    @Test
    void dropsUnknownInputAndApprovalBoundNames() {
        assertThat(filter(ToolSettings.defaults()).unattended(List.of("fs_list", "nope", "ask_user", "fs_write",
                "peek", "fs_read", "web_fetch"))).containsExactly("fs_list", "fs_read");
    }

    @Test
    void remoteToolsAreJudgedOnTheirServerDeclarationOnly() {
        ToolSettings settings = ToolSettings.defaults().withServerApprovalBound("srv", false)
                .withServerApprovalBound("other", true);
        assertThat(filter(settings).unattended(List.of("srv.write", "other.read"))).containsExactly("srv.write");
    }

    @Test
    void unattendedKeepsAnUndeclaredRemoteWriteTool() {
        assertThat(filter(ToolSettings.defaults()).unattended(List.of("srv.write"))).containsExactly("srv.write");
    }

    @Test
    void declaringTheServerApprovalBoundTakesItsToolsOutOfTheUnattendedSet() {
        ToolSettings declared = ToolSettings.defaults().withServerApprovalBound("srv", true);
        assertThat(filter(declared).unattended(List.of("srv.write", "other.read"))).containsExactly("other.read");
    }

    @Test
    void anAdminSettingThatMakesAReadApprovalBoundRemovesIt() {
        ToolSettings free = ToolSettings.defaults().withApprovalSetting("web_fetch", false);
        assertThat(filter(free).unattended(List.of("web_fetch"))).containsExactly("web_fetch");
        assertThat(filter(free.withApprovalSetting("web_fetch", true)).unattended(List.of("web_fetch"))).isEmpty();
    }
}
