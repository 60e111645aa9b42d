package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.tool.RemoteDeclaration.Source;
import io.countersign.engine.tool.ServerHints;
import org.junit.jupiter.api.Test;

class RemoteDeclarationTest {

    @Test
    void aCardSaysWhatWasDeclaredWhereAndByWhomNeverThatARemoteToolReads() {
        assertThat(new RemoteDeclaration(ApprovalDeclaration.APPROVAL_BOUND, Source.TOOL, "maria").effectOnCard())
                .isEqualTo("remote, declared approval-bound for this tool by maria");
        assertThat(new RemoteDeclaration(ApprovalDeclaration.APPROVAL_BOUND, Source.SERVER, "jonas").effectOnCard())
                .isEqualTo("remote, declared approval-bound on its server by jonas");
        assertThat(new RemoteDeclaration(ApprovalDeclaration.NOT_DECLARED, Source.SERVER, null).effectOnCard())
                .isEqualTo("remote, not declared: runs without approval");
    }

    @Test
    void aListSaysWhereTheDeclarationComesFrom() {
        assertThat(new RemoteDeclaration(ApprovalDeclaration.APPROVAL_BOUND, Source.TOOL, "maria").describe())
                .isEqualTo("approval-bound (declared for this tool by maria)");
        assertThat(new RemoteDeclaration(ApprovalDeclaration.NOT_APPROVAL_BOUND, Source.SERVER, null).describe())
                .isEqualTo("not approval-bound (from its server's declaration)");
    }

    @Test
    void aToolsOwnDeclarationIsNeverNotDeclared() {
        assertThatThrownBy(() -> new RemoteDeclaration(ApprovalDeclaration.NOT_DECLARED, Source.TOOL, "maria"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("follows its server's");
    }

    @Test
    void nobodyIsNamedForWhatNobodyDeclared() {
        assertThat(new RemoteDeclaration(ApprovalDeclaration.NOT_DECLARED, Source.SERVER, "maria").declaredBy())
                .isNull();
    }

    @Test
    void theServersHintsAreItsClaimsInWords() {
        assertThat(new ServerHints(true, null).claims()).isEqualTo("server says: read-only");
        assertThat(new ServerHints(false, true).claims()).isEqualTo("server says: not read-only, destructive");
        assertThat(new ServerHints(null, false).claims()).isEqualTo("server says: not destructive");
        assertThat(ServerHints.NONE.claims()).isEmpty();
    }
}
