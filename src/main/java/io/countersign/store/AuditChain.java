package io.countersign.store;

import io.countersign.engine.event.GovernanceEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Appends entries to the audit chain in the caller's transaction, after the rows they cover were written. The first
 * statement updates the chain's head row, which locks it until the transaction ends: appends from every process
 * take their turn there, so the chain's order is the order they commit in. Every writer takes the head last,
 * after its own rows, so no two wait for each other the other way round.
 */
final class AuditChain {
    /** Takes places in the chain: the number taken is the one parameter; the row is locked until the end. */
    private static final String TAKE_HEAD = "UPDATE audit_head SET seq = seq + ? WHERE id = 1";

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

    /**
     * An entry about to be chained: its kind, the ids of the rows it covers and their hashes end to end, and for a
     * purge who purged and the cutoff. Its place in the chain is taken when it is {@linkplain #append appended}.
     */
    record Pending(Kind kind, List<String> ids, byte[] rowHashes, String actor, String detail) {
        static Pending of(Kind kind, List<Row> rows, String actor, String detail) {
            return new Pending(kind, rows.stream().map(Row::id).toList(),
                    AuditRows.bytes(rows.stream().map(Row::hash).toList()), actor, detail);
        }
    }

    /** Chains one entry for the events just inserted, in their order. */
    static void events(Connection connection, Instant at, List<GovernanceEvent> events) throws SQLException {
        append(connection, at, List.of(eventsEntry(events)));
    }

    /** The entry for the events just inserted, in their order. */
    static Pending eventsEntry(List<GovernanceEvent> events) {
        AuditRows hashes = new AuditRows();
        List<String> ids = new ArrayList<>(events.size());
        // the hashes stay bytes, one array for all: no String per event for the marks and row hash to read again
        byte[] rowHashes = new byte[events.size() * AuditRows.HASH_BYTES];
        for (GovernanceEvent event : events) {
            hashes.event(event, rowHashes, ids.size() * AuditRows.HASH_BYTES);
            ids.add(event.id());
        }
        return new Pending(Kind.EVENTS, ids, rowHashes, null, null);
    }

    /** Chains one entry for the decision rows just inserted with these ids, as they are stored. */
    static void decisions(Connection connection, Instant at, List<Long> ids) throws SQLException {
        append(connection, at, List.of(Pending.of(Kind.DECISION, storedDecisions(connection, ids), null, null)));
    }

    /** The decision rows with these ids as they are stored, each with its hash. */
    static List<Row> storedDecisions(Connection connection, List<Long> ids) throws SQLException {
        AuditRows hashes = new AuditRows();
        List<Row> rows = new ArrayList<>(ids.size());
        try (PreparedStatement select = connection.prepareStatement(AuditRows.DECISION_SELECT + " WHERE id = ?")) {
            for (long id : ids) {
                select.setLong(1, id);
                try (ResultSet row = select.executeQuery()) {
                    if (row.next()) {
                        rows.add(new Row(Long.toString(id), hashes.stored("decisions", row, "")));
                    }
                }
            }
        }
        return rows;
    }

    /** Chains the decisions a run put back to waiting is about to lose, with their hashes as they were. */
    static void withdrawn(Connection connection, Instant at, List<Row> decisions) throws SQLException {
        append(connection, at, List.of(Pending.of(Kind.DECISION_WITHDRAWN, decisions, null, null)));
    }

    /** Chains the purge of these rows: who purged, the cutoff, and the removed rows' hashes as they were. */
    static void purge(Connection connection, Instant at, List<Row> removed, String actor, Instant before)
            throws SQLException {
        append(connection, at, List.of(Pending.of(Kind.PURGE, removed, actor, "before=" + Nanos.of(before))));
    }

    /**
     * Appends the entries that cover any row, in their order: the head is taken once for all of them, they are
     * inserted in one statement, and the head keeps the last one's hash (on PostgreSQL in the same statement).
     */
    static void append(Connection connection, Instant at, List<Pending> pending) throws SQLException {
        List<Pending> entries = covering(pending);
        if (entries.isEmpty()) {
            return;
        }
        Head head;
        try (PreparedStatement take = connection.prepareStatement(TAKE_HEAD + " RETURNING "
                + String.join(", ", Head.COLUMNS))) {
            take.setInt(1, entries.size());
            try (ResultSet row = take.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException(Head.MISSING);
                }
                head = Head.read(row, entries.size());
            }
        }
        write(connection, at, entries, head, new WritesInOneStatement());
    }

    /**
     * Takes the head for {@code entries} entries that cover rows, as the next write of the caller's statement
     * (PostgreSQL's): after the rows they cover, before the rows written under the head. Returns how to read the
     * head from the statement's row, for {@link #append(Connection, Instant, List, Head, WritesInOneStatement)}.
     */
    static WritesInOneStatement.Reader<Head> takeHead(WritesInOneStatement writes, int entries) {
        writes.addReturning(TAKE_HEAD, Head.COLUMNS, (take, first) -> {
            take.setInt(first, entries);
            return first + 1;
        });
        return row -> Head.read(row, entries);
    }

    /**
     * Appends the entries, each covering rows, in their order, under the head taken for them, on PostgreSQL: in one
     * statement with the head's new hash and the writes {@code alongside}, made under the head.
     */
    static void append(Connection connection, Instant at, List<Pending> entries, Head head,
                       WritesInOneStatement alongside) throws SQLException {
        if (entries.size() != covering(entries).size()) {
            throw new IllegalArgumentException("an entry taken a place for covers no row");
        }
        write(connection, at, entries, head, alongside);
    }

    private static List<Pending> covering(List<Pending> pending) {
        return pending.stream().filter(entry -> !entry.ids().isEmpty()).toList();
    }

    /** The first of a run of taken places in the chain, and the hash the first entry there follows. */
    record Head(long seq, String previous) {
        static final List<String> COLUMNS = List.of("seq", "hash", "events_before", "decisions_before");
        static final String MISSING = "the audit chain has no head row (audit_head); it was deleted";

        /**
         * The head as a statement that took {@code entries} places returned it, its {@link #COLUMNS} by name (NULL
         * where it found no head row).
         */
        static Head read(ResultSet row, int entries) throws SQLException {
            long last = row.getLong("seq");
            if (row.wasNull()) {
                throw new SQLException(MISSING);
            }
            long seq = last - entries + 1;
            return new Head(seq, seq == 1 ? new AuditRows().genesis(row.getLong("events_before"),
                    row.getLong("decisions_before")) : row.getString("hash"));
        }
    }

    /**
     * Inserts the entries from the head on, and keeps the last one's hash in the head; on PostgreSQL with the writes
     * {@code alongside} in the same statement (SQLite has none).
     */
    private static void write(Connection connection, Instant at, List<Pending> entries, Head head,
                              WritesInOneStatement alongside) throws SQLException {
        AuditRows hashes = new AuditRows();
        long seq = head.seq();
        String previous = head.previous();
        String insert = "INSERT INTO audit_chain (" + Entry.COLUMNS + ") VALUES "
                + String.join(", ", Collections.nCopies(entries.size(), "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        String setHead = "UPDATE audit_head SET hash = ? WHERE id = 1";
        // PostgreSQL inserts the entries and keeps the last hash in one statement; SQLite has no such statement
        boolean together = Dialect.of(connection) == Dialect.POSTGRESQL;
        if (!together && !alongside.isEmpty()) {
            throw new IllegalStateException("only PostgreSQL writes alongside the chain's entries");
        }
        try (PreparedStatement write = connection.prepareStatement(together ? "WITH entries AS (" + insert + ")"
                + (alongside.isEmpty() ? "" : ", " + alongside.ctes(null)) + " " + setHead : insert)) {
            int parameter = 1;
            for (Pending pendingEntry : entries) {
                Entry entry = new Entry(seq++, pendingEntry.kind().code, Nanos.of(at), pendingEntry.actor(),
                        pendingEntry.detail(), String.join("\n", pendingEntry.ids()),
                        AuditRows.rowMarks(pendingEntry.rowHashes()), hashes.ofRows(pendingEntry.rowHashes()),
                        previous, null);
                previous = entry.expectedHash(hashes);
                write.setLong(parameter++, entry.seq());
                write.setString(parameter++, entry.kind());
                write.setLong(parameter++, entry.recordedAt());
                write.setString(parameter++, entry.actor());
                write.setString(parameter++, entry.detail());
                write.setString(parameter++, entry.rowIds());
                write.setString(parameter++, entry.rowMarks());
                write.setString(parameter++, entry.rowHash());
                write.setString(parameter++, entry.previousHash());
                write.setString(parameter++, previous);
            }
            if (together) {
                write.setString(alongside.bind(write, parameter), previous);
            }
            write.executeUpdate();
        }
        if (!together) {
            try (PreparedStatement setHeadHash = connection.prepareStatement(setHead)) {
                setHeadHash.setString(1, previous);
                setHeadHash.executeUpdate();
            }
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
