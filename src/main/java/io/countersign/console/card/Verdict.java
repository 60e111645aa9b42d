package io.countersign.console.card;

/** A person's verdict on one waiting call; every call starts undecided. */
public enum Verdict {
    UNDECIDED,
    APPROVE,
    DENY;

    /** The verdict a toggle moves to: undecided and denied calls become approved, approved ones denied. */
    public Verdict toggled() {
        return this == APPROVE ? DENY : APPROVE;
    }
}
