package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.decision.Decision;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionTest {
    private static final Instant AT = Instant.parse("2026-03-02T10:46:00Z");

    @Test
    void anApprovalsSummaryCountsTheApprovedTheEditedAndTheDenied() {
        Decision.Approval decision = Decision.approval("r1", "jonas", AT, "d1", List.of(
                Decision.CallVerdict.approveEdited(0, TestTools.args("{\"path\": \"docs/NOTES.md\"}")),
                Decision.CallVerdict.approve(1), Decision.CallVerdict.deny(2, "not this one")));

        assertThat(decision.summary()).isEqualTo("approved 2 (1 edited), denied 1");
        assertThat(decision.approvedCalls()).containsExactlyInAnyOrder(0, 1);
        assertThat(decision.denied()).isEqualTo(1);
        assertThat(decision.verdictOn(2)).map(Decision.CallVerdict::reason).contains("not this one");
    }

    @Test
    void anInputApprovesAndDeniesNothing() {
        Decision decision = Decision.input("r1", "maria", AT, "d1", TestTools.args("{\"answer\": \"yes\"}"));

        assertThat(decision.summary()).isEqualTo("input submitted");
        assertThat(decision.approvedCalls()).isEmpty();
        assertThat(decision.denied()).isZero();
    }

    @Test
    void neitherEditedArgumentsNorInputValuesGoIntoItsText() {
        Decision approval = Decision.approval("r1", "jonas", AT, "d1", List.of(
                Decision.CallVerdict.approveEdited(0, TestTools.args("{\"token\": \"s3cret\"}"))));
        Decision input = Decision.input("r1", "maria", AT, "d1", TestTools.args("{\"token\": \"s3cret\"}"));

        assertThat(approval.toString()).doesNotContain("s3cret").contains("approved 1 (1 edited)");
        assertThat(input.toString()).doesNotContain("s3cret").contains("1 fields");
    }

    @Test
    void onlyAnApprovedCallCarriesEditedArguments() {
        assertThatThrownBy(() -> new Decision.CallVerdict(0, false, "no", TestTools.args("{}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("call 0: only an approved call carries edited arguments");
    }
}
