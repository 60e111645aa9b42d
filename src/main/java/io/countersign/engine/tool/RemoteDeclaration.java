package io.countersign.engine.tool;

import java.util.Objects;

/**
 * The declaration a remote tool is judged on, and where it comes from: the tool's own, when an operator declared
 * the tool by itself, else its server record's (which may be "not declared": the tool runs without approval).
 *
 * @param declaration what is declared
 * @param source      whether the tool was declared by itself or follows its server
 * @param declaredBy  who made the declaration in force, or {@code null} when it is not declared or not known
 *                    (a server declared before changes named their author, or a snapshot that carries no names)
 */
public record RemoteDeclaration(ApprovalDeclaration declaration, Source source, String declaredBy) {

    /** Where a remote tool's declaration comes from. */
    public enum Source {
        /** An operator declared this tool by itself; it wins over its server's declaration. */
        TOOL("tool", "declared for this tool"),
        /** The tool has no declaration of its own and follows its server record's. */
        SERVER("server", "from its server's declaration");

        private final String code;
        private final String plainWords;

        Source(String code, String plainWords) {
            this.code = code;
            this.plainWords = plainWords;
        }

        /** A stable code for machine-readable output: {@code tool} or {@code server}. */
        public String code() {
            return code;
        }

        /** Where it comes from, for a person: "declared for this tool", "from its server's declaration". */
        public String plainWords() {
            return plainWords;
        }
    }

    public RemoteDeclaration {
        Objects.requireNonNull(declaration, "declaration");
        Objects.requireNonNull(source, "source");
        if (source == Source.TOOL && !declaration.declared()) {
            throw new IllegalArgumentException("a tool's own declaration is approval-bound or not approval-bound;"
                    + " a tool without one follows its server's");
        }
        declaredBy = declaration.declared() ? declaredBy : null;
    }

    /** Whether a call of the tool waits for an approval: only when the declaration in force says so. */
    public boolean approvalBound() {
        return declaration.approvalBound();
    }

    /** The same declaration, naming who made it. */
    public RemoteDeclaration withDeclaredBy(String who) {
        return new RemoteDeclaration(declaration, source, who);
    }

    /**
     * The declaration and where it comes from, for a person reading a list: "approval-bound (declared for this
     * tool by maria)", "not declared: runs without approval (from its server's declaration)".
     */
    public String describe() {
        return declaration.plainWords() + " (" + source.plainWords() + (declaredBy == null ? "" : " by " + declaredBy)
                + ")";
    }

    /**
     * What a card says of a remote call's effect, which Countersign knows only from the declaration: "remote,
     * declared approval-bound for this tool by maria", "remote, not declared: runs without approval".
     */
    public String effectOnCard() {
        if (!declaration.declared()) {
            return "remote, " + declaration.plainWords();
        }
        return "remote, declared " + declaration.plainWords()
                + (source == Source.TOOL ? " for this tool" : " on its server")
                + (declaredBy == null ? "" : " by " + declaredBy);
    }
}
