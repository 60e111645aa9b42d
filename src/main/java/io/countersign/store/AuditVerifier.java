package io.countersign.store;

import io.countersign.engine.event.AuditAnchor;
import io.countersign.engine.event.AuditFinding;
import io.countersign.engine.event.AuditPurge;
import io.countersign.engine.event.AuditReport;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Walks the audit chain in order: each entry must follow the one before (its number, its previous hash) and hash
 * to its own hash, and the head must end where the chain ends; the rows each entry covers are compared with what
 * is stored now ({@link AuditRowCheck}). Reads only, in auto-commit: entries appended while it walks lie past the
 * head it read first and only excuse rows it would otherwise take for inserted or removed.
 */
final class AuditVerifier {
    private final Connection connection;
    private final AuditRows hashes = new AuditRows();
    private final List<AuditFinding> findings = new ArrayList<>();
    private final List<AuditPurge> purges = new ArrayList<>();

    private AuditVerifier(Connection connection) {
        this.connection = connection;
    }

    /** Verifies the chain; rows of entries recorded before {@code since} (if given) are not read. */
    static AuditReport verify(Connection connection, Instant since, AuditAnchor anchor) throws SQLException {
        return new AuditVerifier(connection).walk(since, anchor);
    }

    /** The chain's head as its head row holds it; empty before the first entry. */
    static Optional<AuditAnchor> head(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT seq, hash FROM audit_head WHERE id = 1");
             ResultSet row = select.executeQuery()) {
            if (!row.next()) {
                throw new SQLException("the audit chain has no head row (audit_head): it was deleted");
            }
            return row.getLong(1) == 0 ? Optional.empty() : Optional.of(new AuditAnchor(row.getLong(1),
                    row.getString(2)));
        }
    }

    private AuditReport walk(Instant since, AuditAnchor anchor) throws SQLException {
        long headSeq;
        String headHash;
        long eventsBefore;
        long decisionsBefore;
        try (PreparedStatement select = connection.prepareStatement("SELECT seq, hash, events_before,"
                + " decisions_before FROM audit_head WHERE id = 1"); ResultSet row = select.executeQuery()) {
            if (!row.next()) {
                findings.add(new AuditFinding(0, null, "the chain's head row (audit_head) was deleted"));
                return report(0, 0, Optional.empty(), Optional.empty(), since, 0, 0);
            }
            headSeq = row.getLong(1);
            headHash = row.getString(2);
            eventsBefore = row.getLong(3);
            decisionsBefore = row.getLong(4);
        }
        AuditRowCheck rows = new AuditRowCheck(connection, hashes, findings, purges, since, decisionsBefore);
        String previous = hashes.genesis(eventsBefore, decisionsBefore);
        long lastSeq = 0;
        AuditReport.Entry first = null;
        AuditReport.Entry last = null;
        boolean anchorSeen = false;
        try (PreparedStatement select = connection.prepareStatement("SELECT " + AuditChain.Entry.COLUMNS
                + " FROM audit_chain ORDER BY seq")) {
            select.setFetchSize(200);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    AuditChain.Entry entry = AuditChain.Entry.read(row);
                    if (entry.seq() > headSeq) {
                        rows.excuse(entry);
                        continue;
                    }
                    link(entry, lastSeq, previous);
                    if (anchor != null && entry.seq() == anchor.seq()) {
                        anchorSeen = true;
                        if (!entry.hash().equals(anchor.hash())) {
                            findings.add(new AuditFinding(entry.seq(), null, "entry " + entry.seq() + " has the hash "
                                    + entry.hash() + ", not the anchor's " + anchor.hash() + ": the chain was"
                                    + " rewritten up to the anchor"));
                        }
                    }
                    rows.check(entry);
                    previous = entry.hash();
                    lastSeq = entry.seq();
                    last = new AuditReport.Entry(entry.seq(), Nanos.toInstant(entry.recordedAt()), entry.hash());
                    first = first == null ? last : first;
                }
            }
        }
        if (lastSeq != headSeq || (headSeq > 0 && !previous.equals(headHash))) {
            findings.add(new AuditFinding(lastSeq, null, "the chain ends at entry " + lastSeq + " but its head names"
                    + " entry " + headSeq + " with another hash: entries were removed from its end or the head was"
                    + " changed"));
        }
        if (anchor != null && !anchorSeen) {
            findings.add(new AuditFinding(anchor.seq(), null, "the anchor's entry " + anchor.seq() + " is not in the"
                    + " chain (it ends at entry " + lastSeq + "): entries were removed"));
        }
        rows.finish(eventsBefore);
        return report(eventsBefore, decisionsBefore, Optional.ofNullable(first), Optional.ofNullable(last), since,
                rows.checked(), rows.olderWrites());
    }

    /** The entry must be the next one and follow the previous hash, and its values must make its hash. */
    private void link(AuditChain.Entry entry, long lastSeq, String previous) {
        long seq = entry.seq();
        if (seq != lastSeq + 1) {
            findings.add(new AuditFinding(seq, null, "the chain jumps from entry " + lastSeq + " to entry " + seq
                    + ": " + (seq - lastSeq - 1) + (seq - lastSeq - 1 == 1 ? " entry was" : " entries were")
                    + " removed"));
        } else if (!entry.previousHash().equals(previous)) {
            findings.add(new AuditFinding(seq, null, "entry " + seq + " does not follow entry " + lastSeq
                    + " (its previous hash differs): entries were inserted, removed or reordered before it"));
        }
        if (!entry.expectedHash(hashes).equals(entry.hash())) {
            findings.add(new AuditFinding(seq, null, "entry " + seq + " (" + entry.kind() + ", recorded "
                    + Nanos.toInstant(entry.recordedAt()) + ") was changed: its values do not make its hash"));
        }
    }

    /** The report, its findings in chain order (rows in no entry last), each entry's in the order found. */
    private AuditReport report(long eventsBefore, long decisionsBefore, Optional<AuditReport.Entry> first,
                               Optional<AuditReport.Entry> last, Instant since, long checked, long olderWrites) {
        List<AuditFinding> ordered = new ArrayList<>(findings);
        ordered.sort(Comparator.comparingLong(finding -> finding.seq() == 0 ? Long.MAX_VALUE : finding.seq()));
        return new AuditReport(eventsBefore, decisionsBefore, olderWrites, first, last, since, checked, ordered,
                purges);
    }
}
