package io.countersign.console.main;

/** What the right-hand pane of the window shows. */
public sealed interface Detail {

    /** Nothing chosen: the empty inbox, or a hint how to move through it. */
    record Empty() implements Detail {
    }

    /** The approval card of a waiting run. */
    record ApprovalCard(String runId) implements Detail {
    }

    /** The input card of a waiting run. */
    record InputCard(String runId) implements Detail {
    }

    /** A run's timeline; Esc goes {@code back} to what was shown before. */
    record Timeline(String runId, Detail back) implements Detail {
    }
}
