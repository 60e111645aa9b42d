package io.countersign.engine.tool;

/**
 * The operator's declaration on a remote server's record, which alone judges the server's tools. A server nobody
 * declared runs its tools without approval, whatever they do: that is easy to miss, so every list says so plainly
 * ({@link #plainWords()}).
 */
public enum ApprovalDeclaration {
    /** Every tool of the server waits for an approval. */
    APPROVAL_BOUND("approval_bound", "approval-bound"),
    /** Declared free: its tools run without approval. */
    NOT_APPROVAL_BOUND("not_approval_bound", "not approval-bound"),
    /** Nobody declared: its tools run without approval and stay in the unattended set. */
    NOT_DECLARED("not_declared", "not declared: runs without approval");

    private final String code;
    private final String plainWords;

    ApprovalDeclaration(String code, String plainWords) {
        this.code = code;
        this.plainWords = plainWords;
    }

    /** The declaration an operator makes by answering "approval-bound?" with yes or no. */
    public static ApprovalDeclaration of(boolean approvalBound) {
        return approvalBound ? APPROVAL_BOUND : NOT_APPROVAL_BOUND;
    }

    /** Whether the server's tools need an approval; only a declaration says yes. */
    public boolean approvalBound() {
        return this == APPROVAL_BOUND;
    }

    public boolean declared() {
        return this != NOT_DECLARED;
    }

    /** A stable code for machine-readable output, such as {@code not_declared}. */
    public String code() {
        return code;
    }

    /** What it means, for a person reading a list, such as "not declared: runs without approval". */
    public String plainWords() {
        return plainWords;
    }
}
