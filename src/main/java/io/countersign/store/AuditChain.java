package io.countersign.store;

import io.countersign.engine.event.GovernanceEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Appends entries to the audit chain in the caller's transaction, after the rows they cover were written. The first
 * statement updates the chain's head row, which locks it until the transaction ends: appends from every process
 * take their turn there, so the chain's order is the order they commit in. Every writer takes the head last,
 * after its own rows, so no two wait for each other the other way round.
 */
final class AuditChain {
    /** What an entry covers. */
    enum Kind {
        EVENTS("events"), DECISION("decision"), DECISION_WITHDRAWN("decision_withdrawn"), PURGE("purge");

        final String code;

        Kind(String code) {
            this.code = code;
        }

        /** The kind of this code; empty for a code no build wrote (an entry changed by hand). */
        static Optional<Kind> of(String code) {
            return Arrays.stream(values()).filter(kind -> kind.code.equals(code)).findFirst();
        }
    }

    /** A covered row: its id and its hash. */
    record Row(String id, String hash) {
    }

    private AuditChain() {
    }

    /** Chains one entry for the events just inserted, in their order. */
    static void events(Connection connection, Instant at, List<GovernanceEvent> events) throws SQLException {
        AuditRows hashes = new AuditRows();
        List<String> ids = new ArrayList<>(events.size());
        // the hashes stay bytes, one array for all: no String per event for the marks and row hash to read again
        byte[] rowHashes = new byte[events.size() * AuditRows.HASH_BYTES];
        for (GovernanceEvent event : events) {
            hashes.event(event, rowHashes, ids.size() * AuditRows.HASH_BYTES);
            ids.add(event.id());
        }
        append(connection, hashes, at, Kind.EVENTS, ids, rowHashes, null, null);
    }

    /** Chains one entry for the decision rows just inserted with these ids, as they are stored. */
    static void decisions(Connection connection, Instant at, List<Long> ids) throws SQLException {
        AuditRows hashes = new AuditRows();
        List<Row> rows = new ArrayList<>(ids.size());
        try (PreparedStatement select = connection.prepareStatement(AuditRows.DECISION_SELECT + " WHERE id = ?")) {
            for (long id : ids) {
                select.setLong(1, id);
                try (ResultSet row = select.executeQuery()) {
                    if (row.next()) {
                        rows.add(new Row(Long.toString(id), hashes.stored("decisions", row)));
                    }
                }
            }
        }
        append(connection, hashes, at, Kind.DECISION, rows, null, null);
    }

    /** Chains the decisions a run put back to waiting is about to lose, with their hashes as they were. */
    static void withdrawn(Connection connection, Instant at, List<Row> decisions) throws SQLException {
        append(connection, new AuditRows(), at, Kind.DECISION_WITHDRAWN, decisions, null, null);
    }

    /** Chains the purge of these rows: who purged, the cutoff, and the removed rows' hashes as they were. */
    static void purge(Connection connection, Instant at, List<Row> removed, String actor, Instant before)
            throws SQLException {
        append(connection, new AuditRows(), at, Kind.PURGE, removed, actor, "before=" + Nanos.of(before));
    }

    private static void append(Connection connection, AuditRows hashes, Instant at, Kind kind, List<Row> rows,
                               String actor, String detail) throws SQLException {
        append(connection, hashes, at, kind, rows.stream().map(Row::id).toList(),
                AuditRows.bytes(rows.stream().map(Row::hash).toList()), actor, detail);
    }

    private static void append(Connection connection, AuditRows hashes, Instant at, Kind kind, List<String> ids,
                               byte[] rowHashes, String actor, String detail) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        long seq;
        String previous;
        try (PreparedStatement head = connection.prepareStatement("UPDATE audit_head SET seq = seq + 1 WHERE id = 1"
                + " RETURNING seq, hash, events_before, decisions_before");
             ResultSet row = head.executeQuery()) {
            if (!row.next()) {
                throw new SQLException("the audit chain has no head row (audit_head); it was deleted");
            }
            seq = row.getLong(1);
            previous = seq == 1 ? hashes.genesis(row.getLong(3), row.getLong(4)) : row.getString(2);
        }
        Entry entry = new Entry(seq, kind.code, Nanos.of(at), actor, detail, String.join("\n", ids),
                AuditRows.rowMarks(rowHashes), hashes.ofRows(rowHashes), previous, null);
        String hash = entry.expectedHash(hashes);
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO audit_chain (seq, kind,"
                + " recorded_at, actor, detail, row_ids, row_marks, row_hash, prev_hash, hash)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setLong(1, seq);
            insert.setString(2, entry.kind());
            insert.setLong(3, entry.recordedAt());
            insert.setString(4, actor);
            insert.setString(5, detail);
            insert.setString(6, entry.rowIds());
            insert.setString(7, entry.rowMarks());
            insert.setString(8, entry.rowHash());
            insert.setString(9, previous);
            insert.setString(10, hash);
            insert.executeUpdate();
        }
        try (PreparedStatement head = connection.prepareStatement("UPDATE audit_head SET hash = ? WHERE id = 1")) {
            head.setString(1, hash);
            head.executeUpdate();
        }
    }

    /** One stored entry of {@code audit_chain}. */
    record Entry(long seq, String kind, long recordedAt, String actor, String detail, String rowIds,
                 String rowMarks, String rowHash, String previousHash, String hash) {
        static final String COLUMNS = "seq, kind, recorded_at, actor, detail, row_ids, row_marks, row_hash,"
                + " prev_hash, hash";

        static Entry read(ResultSet row) throws SQLException {
            return new Entry(row.getLong(1), row.getString(2), row.getLong(3), row.getString(4), row.getString(5),
                    row.getString(6), row.getString(7), row.getString(8), row.getString(9), row.getString(10));
        }

        /** The hash this entry's values make: every column but the hash itself. */
        String expectedHash(AuditRows hashes) {
            return hashes.hash("entry", seq, kind, recordedAt, actor, detail, rowIds, rowMarks, rowHash,
                    previousHash);
        }
    }
}
