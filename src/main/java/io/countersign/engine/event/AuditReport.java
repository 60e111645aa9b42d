package io.countersign.engine.event;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a walk of the audit chain found. The chain covers what was appended after it began; the events and
 * decisions stored before ({@link #eventsBefore}, decision ids up to {@link #decisionsBefore}) are not covered, nor
 * are the rows a process of a build older than the chain wrote while it ran on after the store was migrated
 * ({@link #olderWrites}: they carry no schema version, which every build since schema 27 writes and requires).
 *
 * @param begins       the first entry, empty while the chain has none
 * @param head         the last entry walked, empty while the chain has none
 * @param since        rows recorded before this were not read (their entries' links were checked), or null
 * @param rowsChecked  how many stored rows were hashed and compared
 * @param findings     everything wrong, first found first; none when the chain verifies
 * @param purges       the purges recorded, each found whole
 */
public record AuditReport(long eventsBefore, long decisionsBefore, long olderWrites, Optional<Entry> begins,
                          Optional<Entry> head,
                          Instant since, long rowsChecked, List<AuditFinding> findings, List<AuditPurge> purges) {
    public AuditReport {
        Objects.requireNonNull(begins, "begins");
        Objects.requireNonNull(head, "head");
        findings = List.copyOf(findings);
        purges = List.copyOf(purges);
    }

    /** An entry of the chain: its number, when it was recorded, its hash. */
    public record Entry(long seq, Instant at, String hash) {
        public AuditAnchor anchor() {
            return new AuditAnchor(seq, hash);
        }
    }

    /** True when nothing was found wrong. */
    public boolean verified() {
        return findings.isEmpty();
    }

    /** Where the chain begins and what it does not cover, in one sentence. */
    public String beginning() {
        List<String> before = new ArrayList<>();
        if (eventsBefore > 0) {
            before.add("the " + eventsBefore + (eventsBefore == 1 ? " event" : " events"));
        }
        if (decisionsBefore > 0) {
            before.add("the decisions up to id " + decisionsBefore);
        }
        String uncovered = before.isEmpty() ? "nothing was stored before it"
                : String.join(" and ", before) + " stored before it are not covered";
        if (olderWrites > 0) {
            uncovered += "; the " + olderWrites + (olderWrites == 1 ? " row" : " rows") + " written outside it by a"
                    + " Countersign older than the chain (made for schema version 13 or before) while it ran on after"
                    + " the store was migrated are not covered either";
        }
        return begins.map(first -> "audit chain begins at entry " + first.seq() + ", " + first.at() + "; ")
                .orElse("audit chain has no entry yet; ") + uncovered;
    }
}
