package io.countersign.engine.event;

/**
 * One thing wrong with the audit chain or the rows it covers: the chain entry it was found at (0 when none), the
 * row it names (null when it names an entry), and one sentence that says what is wrong.
 */
public record AuditFinding(long seq, String rowId, String message) {
}
