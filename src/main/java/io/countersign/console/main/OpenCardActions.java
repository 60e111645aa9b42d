package io.countersign.console.main;

import io.countersign.console.card.ApprovalCardViewModel;
import io.countersign.console.input.InputCardViewModel;
import java.util.Objects;
import javafx.beans.value.ObservableValue;

/** What the keyboard does to the card that is open: each action goes to the card the detail pane shows, or none. */
public final class OpenCardActions {
    private final ApprovalCardViewModel approval;
    private final InputCardViewModel input;
    private final ObservableValue<Detail> detail;

    OpenCardActions(ApprovalCardViewModel approval, InputCardViewModel input, ObservableValue<Detail> detail) {
        this.approval = Objects.requireNonNull(approval, "approval");
        this.input = Objects.requireNonNull(input, "input");
        this.detail = Objects.requireNonNull(detail, "detail");
    }

    /** Approves every call of the open approval card (A). */
    public void approveAll() {
        if (detail.getValue() instanceof Detail.ApprovalCard) {
            approval.approveAll();
        }
    }

    /** Denies every call of the open approval card (D). */
    public void denyAll() {
        if (detail.getValue() instanceof Detail.ApprovalCard) {
            approval.denyAll();
        }
    }

    /** Toggles the verdict of the call at a position of the open approval card (1–9). */
    public void toggle(int position) {
        if (detail.getValue() instanceof Detail.ApprovalCard) {
            approval.toggle(position);
        }
    }

    /** Submits the open card (Enter). */
    public void submit() {
        if (detail.getValue() instanceof Detail.ApprovalCard) {
            approval.submit();
        } else if (detail.getValue() instanceof Detail.InputCard) {
            input.submit();
        }
    }
}
