package io.countersign.store;

import io.countersign.engine.event.AuditFinding;
import io.countersign.engine.event.AuditPurge;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The rows the audit chain covers against what is stored now, entry by entry in chain order: a row whose hash
 * differs from its entry's mark was changed; a row that is gone must be listed, with the same mark, by a later
 * purge (events) or withdrawal (decisions), else it was removed; a stored row that no entry lists, and that was not
 * stored before the chain began, was inserted. Rows are told apart by the first 64 bits of their hashes; an entry
 * whose rows are all still stored is checked by its full row hash too.
 */
final class AuditRowCheck {
    private static final int CHUNK = 500;
    /** Inserted rows are named up to this many; a count says how many more there are. */
    private static final int NAMED = 100;

    private final Connection connection;
    private final AuditRows hashes;
    private final List<AuditFinding> findings;
    private final List<AuditPurge> purges;
    private final Instant since;
    /** Covered rows found gone, by id: the entry that covered each and its mark, until a purge accounts for it. */
    private final Map<String, Covered> missingEvents = new LinkedHashMap<>();
    /**
     * The decisions chained and not withdrawn, by id: the latest entry that covered each. SQLite may give a new
     * decision the id of one withdrawn before it, so a decision is checked against its latest entry, at the end.
     */
    private final Map<String, Covered> decisions = new LinkedHashMap<>();
    private final Set<String> lateDecisions = new HashSet<>();
    private final Set<String> lateEvents = new HashSet<>();
    /** Events entries walked whose rows are not compared yet, and how many rows they cover. */
    private final List<AuditChain.Entry> pending = new ArrayList<>();
    private int pendingRows;
    private long presentEvents;
    private long checked;
    /** Rows in no entry that a build older than V27 wrote (no written_at_schema): outside the chain, not forged. */
    private long olderWrites;

    private record Covered(long seq, String mark) {
    }

    private final long decisionsBefore;

    AuditRowCheck(Connection connection, AuditRows hashes, List<AuditFinding> findings, List<AuditPurge> purges,
                  Instant since, long decisionsBefore) {
        this.decisionsBefore = decisionsBefore;
        this.connection = connection;
        this.hashes = hashes;
        this.findings = findings;
        this.purges = purges;
        this.since = since;
    }

    long checked() {
        return checked;
    }

    long olderWrites() {
        return olderWrites;
    }

    /** Checks the rows of an entry of the chain walked. */
    void check(AuditChain.Entry entry) throws SQLException {
        List<String> ids = AuditRows.ids(entry.rowIds());
        List<String> marks = AuditRows.marks(entry.rowMarks());
        Optional<AuditChain.Kind> kind = AuditChain.Kind.of(entry.kind());
        if (kind.isEmpty()) {
            findings.add(new AuditFinding(entry.seq(), null, "entry " + entry.seq() + " has the kind \""
                    + entry.kind() + "\", which no Countersign writes"));
            return;
        }
        switch (kind.get()) {
            case EVENTS -> {
                if (since == null || entry.recordedAt() >= Nanos.of(since)) {
                    pending.add(entry);
                    pendingRows += ids.size();
                    if (pendingRows >= CHUNK) {
                        comparePending();
                    }
                }
            }
            case DECISION -> {
                for (int i = 0; i < ids.size(); i++) {
                    decisions.put(ids.get(i), new Covered(entry.seq(), i < marks.size() ? marks.get(i) : ""));
                }
            }
            case DECISION_WITHDRAWN -> withdraw(entry, ids, marks);
            case PURGE -> {
                comparePending();
                accountFor(entry, ids, marks);
                recordPurge(entry, ids.size());
            }
        }
    }

    /** An entry appended while the walk ran: it only accounts for rows, it is not checked. */
    void excuse(AuditChain.Entry entry) {
        List<String> ids = AuditRows.ids(entry.rowIds());
        switch (AuditChain.Kind.of(entry.kind()).orElse(AuditChain.Kind.EVENTS)) {
            case EVENTS -> lateEvents.addAll(ids);
            case DECISION -> lateDecisions.addAll(ids);
            case DECISION_WITHDRAWN -> ids.forEach(decisions::remove);
            case PURGE -> ids.forEach(missingEvents::remove);
        }
    }

    /** Names what no later entry accounted for, and the rows no entry covers. */
    void finish(long eventsBefore) throws SQLException {
        comparePending();
        missingEvents.forEach((id, covered) -> findings.add(new AuditFinding(covered.seq(), id, "event " + id
                + " (entry " + covered.seq() + ") was removed: it is not stored and no purge lists it")));
        Map<String, String> stored = stored("decisions", List.copyOf(decisions.keySet()));
        decisions.forEach((id, covered) -> {
            String hash = stored.get(id);
            if (hash == null) {
                findings.add(new AuditFinding(covered.seq(), id, "decision " + id + " (entry " + covered.seq()
                        + ") was removed: it is not stored and was not withdrawn"));
            } else if (!AuditRows.mark(hash).equals(covered.mark())) {
                findings.add(new AuditFinding(covered.seq(), id, "decision " + id + " (entry " + covered.seq()
                        + ") was changed: its stored values do not make the hash the chain recorded"));
            } else {
                checked++;
            }
        });
        insertedEvents(eventsBefore);
        List<String> inserted = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT id, written_at_schema FROM decisions"
                + " WHERE id > ? ORDER BY id")) {
            select.setLong(1, decisionsBefore);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    String id = Long.toString(row.getLong(1));
                    if (!decisions.containsKey(id) && !lateDecisions.contains(id)) {
                        unchained(row, id, inserted);
                    }
                }
            }
        }
        name(inserted, "decision");
    }

    /**
     * Compares the rows of the events entries walked since the last comparison, read in one query a chunk: most
     * entries cover one event each, and a query per entry would cost a round trip per event.
     */
    private void comparePending() throws SQLException {
        List<String> ids = new ArrayList<>(pendingRows);
        pending.forEach(entry -> ids.addAll(AuditRows.ids(entry.rowIds())));
        Map<String, String> stored = stored("governance_events", ids);
        for (AuditChain.Entry entry : pending) {
            compare(entry, stored);
        }
        pending.clear();
        pendingRows = 0;
    }

    private void compare(AuditChain.Entry entry, Map<String, String> stored) {
        List<String> ids = AuditRows.ids(entry.rowIds());
        List<String> marks = AuditRows.marks(entry.rowMarks());
        List<String> full = new ArrayList<>(ids.size());
        boolean allMatch = true;
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            String hash = stored.get(id);
            String mark = i < marks.size() ? marks.get(i) : "";
            if (hash == null) {
                missingEvents.put(id, new Covered(entry.seq(), mark));
                allMatch = false;
                continue;
            }
            checked++;
            full.add(hash);
            if (!AuditRows.mark(hash).equals(mark)) {
                allMatch = false;
                findings.add(new AuditFinding(entry.seq(), id, "event " + id + " (entry " + entry.seq()
                        + ") was changed: its stored values do not make the hash the chain recorded"));
            }
        }
        if (allMatch && !hashes.ofRows(full).equals(entry.rowHash())) {
            findings.add(new AuditFinding(entry.seq(), null, "the events of entry " + entry.seq() + " do not make"
                    + " its row hash: one of them was changed, or the entry was"));
        }
    }

    /** A purge must list events the walk found gone, with the marks their entries recorded. */
    private void accountFor(AuditChain.Entry entry, List<String> ids, List<String> marks) throws SQLException {
        List<String> unaccounted = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            Covered covered = missingEvents.remove(id);
            if (covered == null) {
                unaccounted.add(id);
            } else if (i < marks.size() && !covered.mark().equals(marks.get(i))) {
                findings.add(new AuditFinding(covered.seq(), id, "event " + id + " (entry " + covered.seq()
                        + ") was changed before it was purged at entry " + entry.seq()));
            }
        }
        // Rows the walk did not see go (stored before the chain began, or not read since --since): still stored?
        for (String id : stored("governance_events", unaccounted).keySet()) {
            findings.add(new AuditFinding(entry.seq(), id, "event " + id + " was purged at entry " + entry.seq()
                    + " but is stored again: it was inserted after"));
        }
    }

    /** A withdrawal must name decisions the chain holds, with the marks their entries recorded. */
    private void withdraw(AuditChain.Entry entry, List<String> ids, List<String> marks) {
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            Covered covered = decisions.remove(id);
            if (covered == null && parseId(id) > decisionsBefore) {
                findings.add(new AuditFinding(entry.seq(), id, "decision " + id + " was withdrawn at entry "
                        + entry.seq() + " but no entry before it chained it"));
            } else if (covered != null && i < marks.size() && !covered.mark().equals(marks.get(i))) {
                findings.add(new AuditFinding(covered.seq(), id, "decision " + id + " (entry " + covered.seq()
                        + ") was changed before it was withdrawn at entry " + entry.seq()));
            }
        }
    }

    /** The slices of one purge (same cutoff, same admin, one after another) are reported as one purge. */
    private void recordPurge(AuditChain.Entry entry, int events) {
        String detail = entry.detail() == null ? "" : entry.detail();
        Instant before;
        try {
            before = Nanos.toInstant(Long.parseLong(detail.substring(detail.indexOf('=') + 1)));
        } catch (NumberFormatException e) {
            findings.add(new AuditFinding(entry.seq(), null, "entry " + entry.seq() + " is a purge without its"
                    + " cutoff (\"" + detail + "\")"));
            return;
        }
        Instant at = Nanos.toInstant(entry.recordedAt());
        AuditPurge last = purges.isEmpty() ? null : purges.get(purges.size() - 1);
        if (last != null && last.before().equals(before) && Objects.equals(last.by(), entry.actor())) {
            purges.set(purges.size() - 1, new AuditPurge(last.seq(), last.at(), last.by(), before,
                    last.events() + events));
        } else {
            purges.add(new AuditPurge(entry.seq(), at, entry.actor(), before, events));
        }
    }

    /** The stored rows of the table with these ids, each with its hash. */
    private Map<String, String> stored(String table, List<String> ids) throws SQLException {
        Map<String, String> found = new HashMap<>();
        boolean decision = table.equals("decisions");
        String select = decision ? AuditRows.DECISION_SELECT
                : "SELECT " + EventStore.COLUMNS + " FROM governance_events";
        for (int from = 0; from < ids.size(); from += CHUNK) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            try (PreparedStatement statement = connection.prepareStatement(select + " WHERE id IN ("
                    + String.join(", ", Collections.nCopies(chunk.size(), "?")) + ")")) {
                for (int i = 0; i < chunk.size(); i++) {
                    if (decision) {
                        statement.setLong(i + 1, parseId(chunk.get(i)));
                    } else {
                        statement.setString(i + 1, chunk.get(i));
                    }
                }
                try (ResultSet row = statement.executeQuery()) {
                    while (row.next()) {
                        String id = decision ? Long.toString(row.getLong("id")) : row.getString("id");
                        found.put(id, hashes.stored(table, row));
                        if (!decision && (since == null || row.getLong("event_time") >= Nanos.of(since))) {
                            presentEvents++;
                        }
                    }
                }
            }
        }
        return found;
    }

    private static long parseId(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Stored events no entry lists and not stored before the chain began. Counted first; only when there are more
     * stored than the walk found are the chain's ids gathered to name them.
     */
    private void insertedEvents(long eventsBefore) throws SQLException {
        String uncovered = " FROM governance_events e WHERE NOT EXISTS (SELECT 1 FROM audit_unchained u"
                + " WHERE u.row_id = e.id)" + (since == null ? "" : " AND e.event_time >= ?");
        long stored;
        try (PreparedStatement count = connection.prepareStatement("SELECT COUNT(*)" + uncovered)) {
            if (since != null) {
                count.setLong(1, Nanos.of(since));
            }
            try (ResultSet row = count.executeQuery()) {
                row.next();
                stored = row.getLong(1);
            }
        }
        try (PreparedStatement count = connection.prepareStatement("SELECT COUNT(*) FROM audit_unchained");
             ResultSet row = count.executeQuery()) {
            row.next();
            if (row.getLong(1) > eventsBefore) {
                findings.add(new AuditFinding(0, null, "audit_unchained lists " + (row.getLong(1) - eventsBefore)
                        + " events more than were stored before the chain began: ids were added to it"));
            }
        }
        if (stored <= presentEvents) {
            return;
        }
        Set<String> chained = new HashSet<>(lateEvents);
        try (PreparedStatement select = connection.prepareStatement("SELECT row_ids FROM audit_chain"
                + " WHERE kind = ?")) {
            select.setString(1, AuditChain.Kind.EVENTS.code);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    chained.addAll(AuditRows.ids(row.getString(1)));
                }
            }
        }
        List<String> inserted = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT e.id, e.written_at_schema" + uncovered
                + " ORDER BY e.event_time, e.id")) {
            if (since != null) {
                select.setLong(1, Nanos.of(since));
            }
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    if (!chained.contains(row.getString(1))) {
                        unchained(row, row.getString(1), inserted);
                    }
                }
            }
        }
        name(inserted, "event");
    }

    /**
     * A row in no entry: one a build from before V27 wrote (an older process still running after the chain began)
     * has no written_at_schema; one that has it was written by a build that chains every row, so it was inserted.
     */
    private void unchained(ResultSet row, String id, List<String> inserted) throws SQLException {
        row.getInt(2);
        if (row.wasNull()) {
            olderWrites++;
        } else {
            inserted.add(id);
        }
    }

    private void name(List<String> inserted, String what) {
        for (String id : inserted.subList(0, Math.min(NAMED, inserted.size()))) {
            findings.add(new AuditFinding(0, id, what + " " + id + " is in no entry of the chain: it was inserted"));
        }
        if (inserted.size() > NAMED) {
            findings.add(new AuditFinding(0, null, "and " + (inserted.size() - NAMED) + " more " + what
                    + "s in no entry of the chain"));
        }
    }
}
