package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.access.ToolApprovalRule;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.tool.ToolEffect;
import org.junit.jupiter.api.Test;

class ToolApprovalRuleTest {
    private final ToolSettings defaults = ToolSettings.defaults();

    @Test
    void noToolNeedsNoApproval() {
        assertThat(defaults.requiresApproval(null)).isFalse();
    }

    @Test
    void approvalMarkerNeedsApprovalEvenForARead() {
        assertThat(defaults.requiresApproval(new TestTools.Marked("peek"))).isTrue();
    }

    @Test
    void remoteToolFollowsItsServerDeclarationNotItsEffect() {
        TestTools.Remote remoteWrite = new TestTools.Remote("srv.write", "srv", ToolEffect.WRITE);
        TestTools.Remote remoteRead = new TestTools.Remote("srv.read", "srv", ToolEffect.READ);
        ToolSettings declaredBound = defaults.withServerApprovalBound("srv", true);
        assertThat(declaredBound.requiresApproval(remoteRead)).isTrue();
        ToolSettings declaredFree = defaults.withServerApprovalBound("srv", false);
        assertThat(declaredFree.requiresApproval(remoteWrite)).isFalse();
        assertThat(declaredFree.requiresApproval(remoteRead)).isFalse();
    }

    @Test
    void anUndeclaredRemoteWriteToolNeedsNoApproval() {
        TestTools.Remote remoteWrite = new TestTools.Remote("srv.write", "srv", ToolEffect.WRITE);
        assertThat(defaults.serverDeclaration("srv")).isEqualTo(ApprovalDeclaration.NOT_DECLARED);
        assertThat(defaults.requiresApproval(remoteWrite)).isFalse();
    }

    @Test
    void theDeclarationHasThreeStatesAndCanReturnToNotDeclared() {
        ToolSettings bound = defaults.withServerDeclaration("srv", ApprovalDeclaration.APPROVAL_BOUND);
        assertThat(bound.serverDeclaration("srv")).isEqualTo(ApprovalDeclaration.APPROVAL_BOUND);
        assertThat(bound.withServerDeclaration("srv", ApprovalDeclaration.NOT_APPROVAL_BOUND).serverDeclaration("srv"))
                .isEqualTo(ApprovalDeclaration.NOT_APPROVAL_BOUND);
        assertThat(bound.withServerDeclaration("srv", ApprovalDeclaration.NOT_DECLARED)).isEqualTo(defaults);
    }

    @Test
    void aToolsOwnDeclarationWinsOverItsServers() {
        TestTools.Remote write = new TestTools.Remote("srv.write", "srv", ToolEffect.WRITE);
        TestTools.Remote read = new TestTools.Remote("srv.read", "srv", ToolEffect.READ);
        ToolSettings serverFree = defaults.withServerApprovalBound("srv", false)
                .withToolDeclaration("srv.write", ApprovalDeclaration.APPROVAL_BOUND);
        assertThat(serverFree.requiresApproval(write)).isTrue();
        assertThat(serverFree.requiresApproval(read)).isFalse();
        ToolSettings serverBound = defaults.withServerApprovalBound("srv", true)
                .withToolDeclaration("srv.read", ApprovalDeclaration.NOT_APPROVAL_BOUND);
        assertThat(serverBound.requiresApproval(read)).isFalse();
        assertThat(serverBound.requiresApproval(write)).isTrue();
    }

    @Test
    void aToolWithoutItsOwnDeclarationFollowsItsServers() {
        TestTools.Remote read = new TestTools.Remote("srv.read", "srv", ToolEffect.READ);
        ToolSettings settings = defaults.withServerApprovalBound("srv", true)
                .withToolDeclaration("srv.write", ApprovalDeclaration.NOT_APPROVAL_BOUND);
        assertThat(settings.requiresApproval(read)).isTrue();
        assertThat(settings.declarationOf("srv.read", "srv"))
                .isEqualTo(new RemoteDeclaration(ApprovalDeclaration.APPROVAL_BOUND, RemoteDeclaration.Source.SERVER,
                        null));
    }

    @Test
    void aToolOfAnUndeclaredServerWithoutItsOwnDeclarationNeedsNoApproval() {
        TestTools.Remote write = new TestTools.Remote("srv.write", "srv", ToolEffect.WRITE);
        ToolSettings other = defaults.withToolDeclaration("srv.other", ApprovalDeclaration.APPROVAL_BOUND);
        assertThat(other.requiresApproval(write)).isFalse();
        assertThat(other.declarationOf("srv.write", "srv").describe())
                .isEqualTo("not declared: runs without approval (from its server's declaration)");
    }

    @Test
    void takingAToolsOwnDeclarationAwayLeavesItsServersInForce() {
        ToolSettings declared = defaults.withToolDeclaration("srv.write", ApprovalDeclaration.APPROVAL_BOUND);
        assertThat(declared.withToolDeclaration("srv.write", ApprovalDeclaration.NOT_DECLARED)).isEqualTo(defaults);
    }

    @Test
    void writeEffectNeedsApproval() {
        assertThat(defaults.requiresApproval(TestTools.write("fs_write"))).isTrue();
    }

    @Test
    void configurableReadFollowsItsSetting() {
        TestTools.Configurable fetch = new TestTools.Configurable("web_fetch", ToolEffect.READ);
        assertThat(defaults.requiresApproval(fetch)).isTrue();
        assertThat(defaults.withApprovalSetting("web_fetch", false).requiresApproval(fetch))
                .isFalse();
    }

    @Test
    void configurableWriteSetToNoApprovalStillNeedsApproval() {
        TestTools.Configurable write = new TestTools.Configurable("cfg_write", ToolEffect.WRITE);
        assertThat(defaults.withApprovalSetting("cfg_write", false).requiresApproval(write))
                .isTrue();
    }

    @Test
    void plainReadNeedsNoApproval() {
        assertThat(defaults.requiresApproval(TestTools.read("fs_read"))).isFalse();
    }

    @Test
    void ruleReadsTheCurrentSettingsEachTime() {
        TestTools.Configurable fetch = new TestTools.Configurable("web_fetch", ToolEffect.READ);
        ToolSettings[] current = {defaults};
        ToolApprovalRule rule = new ToolApprovalRule(() -> current[0]);
        assertThat(rule.requiresApproval(fetch)).isTrue();
        current[0] = defaults.withApprovalSetting("web_fetch", false);
        assertThat(rule.requiresApproval(fetch)).isFalse();
    }
}
