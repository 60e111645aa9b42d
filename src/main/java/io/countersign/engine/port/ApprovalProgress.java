package io.countersign.engine.port;

import java.time.Instant;
import java.util.List;

/**
 * How far a card is on its way to the approvals it needs: {@code required} distinct people, of whom those in
 * {@code approvals} have approved it already (oldest first). A card one person decides has {@link #SINGLE}.
 */
public record ApprovalProgress(int required, List<Approver> approvals) {
    /** A card one approval decides. */
    public static final ApprovalProgress SINGLE = new ApprovalProgress(1, List.of());

    public ApprovalProgress {
        if (required < 1) {
            throw new IllegalArgumentException("a card needs at least one approval, got " + required);
        }
        approvals = List.copyOf(approvals);
    }

    /** One person who approved, and when. */
    public record Approver(String name, Instant at) {
    }

    /** True when the card needs more than one person. */
    public boolean quorum() {
        return required > 1;
    }

    /** True when this person has approved the card already. */
    public boolean approvedBy(String name) {
        return approvals.stream().anyMatch(approver -> approver.name().equals(name));
    }
}
