package io.countersign.engine.tool;

/**
 * What a remote server says of one of its tools ({@code readOnlyHint}, {@code destructiveHint}): its claims,
 * shown beside the operator's declaration and never used to decide anything. A server may say nothing, or
 * anything: a hint is not checked.
 *
 * @param readOnly    the server's {@code readOnlyHint}, or {@code null} when it gave none
 * @param destructive the server's {@code destructiveHint}, or {@code null} when it gave none
 */
public record ServerHints(Boolean readOnly, Boolean destructive) {
    /** A server that says nothing about the tool. */
    public static final ServerHints NONE = new ServerHints(null, null);

    /** Whether the server said anything at all. */
    public boolean any() {
        return readOnly != null || destructive != null;
    }

    /**
     * The claims in words, such as "server says: read-only" or "server says: not read-only, destructive"; empty
     * when the server said nothing.
     */
    public String claims() {
        if (!any()) {
            return "";
        }
        StringBuilder text = new StringBuilder("server says: ");
        if (readOnly != null) {
            text.append(readOnly ? "read-only" : "not read-only");
        }
        if (destructive != null && !Boolean.TRUE.equals(readOnly)) {
            // MCP reads destructiveHint only for a tool that is not read-only
            text.append(readOnly == null ? "" : ", ").append(destructive ? "destructive" : "not destructive");
        }
        return text.toString();
    }
}
