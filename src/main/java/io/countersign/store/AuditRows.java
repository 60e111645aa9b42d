package io.countersign.store;

import io.countersign.engine.event.GovernanceEvent;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.LongStream;

/**
 * The audit chain's canonical encoding, version 1, and its SHA-256 hashes. A row is hashed over its table's name
 * and its stored columns in a fixed order, each value written with its kind and length, so that no two different
 * rows encode alike: {@code N} for NULL, {@code I<decimal>;} for a number, {@code S<bytes>:<UTF-8>} for a text.
 * A new encoding would get a new version; the version is the first value of every hash.
 */
final class AuditRows {
    static final String VERSION = "countersign-audit-1";
    /** The event columns a row hash covers, in {@link EventStore#COLUMNS} order; numbers: event_time. */
    static final List<String> EVENT_COLUMNS = List.of(EventStore.COLUMNS.split(", *"));
    /** The decision columns a row hash covers; event_recorded is left out, the one column written later. */
    static final List<String> DECISION_COLUMNS = List.of("id", "run_id", "pause_number", "decided_by", "decided_at",
            "kind", "digest", "summary", "verdicts", "input");
    static final String DECISION_SELECT = "SELECT " + String.join(", ", DECISION_COLUMNS) + " FROM decisions";
    private static final List<String> EVENT_NUMBERS = List.of("event_time");
    private static final List<String> DECISION_NUMBERS = List.of("id", "pause_number", "decided_at");
    private static final HexFormat HEX = HexFormat.of();
    /** The length of a row's mark: enough to tell which row of an entry changed, not what it holds. */
    static final int MARK = 16;
    /** The length of a row's hash in bytes, as an entry's rows are kept until their columns are written. */
    static final int HASH_BYTES = 32;

    /** 10 to the power of its index, up to the largest a long holds. */
    private static final long[] TENS = LongStream.iterate(1, ten -> ten * 10).limit(19).toArray();
    private static final byte[] VERSION_BYTES = VERSION.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /** How a row hash's 64 hex digits start as a text of the encoding. */
    private static final byte[] ROW_HASH_TEXT = ("S" + HASH_BYTES * 2 + ":").getBytes(StandardCharsets.US_ASCII);

    private final MessageDigest digest;
    /** The values being hashed, in the canonical encoding; reused from one hash to the next. */
    private byte[] encoded = new byte[512];
    private int length;
    private final byte[] hashed = new byte[HASH_BYTES];

    AuditRows() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java has no SHA-256", e);
        }
    }

    /** Writes the hash of an event as {@link EventStore#bind} stores it into {@code into} from {@code at}. */
    void event(GovernanceEvent event, byte[] into, int at) {
        // spelled out rather than through hash(Object...): no array and no boxed time per event of a batch
        length = 0;
        put(VERSION_BYTES);
        putText("governance_events");
        putText(event.id());
        putNumber(Nanos.of(event.time()));
        putText(event.type().code());
        putText(event.reasonCode());
        putText(event.toolName());
        putText(event.ruleId());
        putText(event.runId());
        putText(event.agentConfiguration());
        putText(event.actor());
        putText(event.model());
        putText(event.detail());
        digestEncoded(into, at);
    }

    /** The hash of the stored row of {@code table} ({@code governance_events} or {@code decisions}). */
    String stored(String table, ResultSet row) throws SQLException {
        return stored(table, row, "");
    }

    /** As {@link #stored(String, ResultSet)}, from the row's columns named with the prefix before each. */
    String stored(String table, ResultSet row, String prefix) throws SQLException {
        boolean decision = table.equals("decisions");
        List<String> columns = decision ? DECISION_COLUMNS : EVENT_COLUMNS;
        List<String> numbers = decision ? DECISION_NUMBERS : EVENT_NUMBERS;
        Object[] values = new Object[columns.size() + 1];
        values[0] = table;
        for (int i = 0; i < columns.size(); i++) {
            String column = columns.get(i);
            if (numbers.contains(column)) {
                long number = row.getLong(prefix + column);
                values[i + 1] = row.wasNull() ? null : number;
            } else {
                values[i + 1] = row.getString(prefix + column);
            }
        }
        return hash(values);
    }

    /** SHA-256 over the values in the canonical encoding, as 64 lower-case hex digits. */
    String hash(Object... values) {
        // encoded whole first and digested in one update: a row's dozen small updates cost more than its hash
        length = 0;
        put(VERSION_BYTES);
        for (Object value : values) {
            if (value instanceof Long || value instanceof Integer) {
                putNumber(((Number) value).longValue());
            } else {
                putText((String) value);
            }
        }
        digestEncoded(hashed, 0);
        return HEX.formatHex(hashed);
    }

    /** SHA-256 over row hashes in order, each as its 64 hex digits: what an entry's {@code row_hash} holds. */
    String ofRows(byte[] rowHashes) {
        length = 0;
        room(VERSION_BYTES.length + rowHashes.length / HASH_BYTES * (ROW_HASH_TEXT.length + HASH_BYTES * 2));
        put(VERSION_BYTES);
        for (int at = 0; at < rowHashes.length; at += HASH_BYTES) {
            // the digits go straight into the encoding: no String per row to encode again
            put(ROW_HASH_TEXT);
            length = hex(rowHashes, at, HASH_BYTES, encoded, length);
        }
        digestEncoded(hashed, 0);
        return HEX.formatHex(hashed);
    }

    /** {@link #ofRows(byte[])} over row hashes as {@link #hash} and {@link #stored} return them. */
    String ofRows(List<String> rowHashes) {
        return ofRows(bytes(rowHashes));
    }

    /** Row hashes as {@link #hash} and {@link #stored} return them, as bytes one after the other. */
    static byte[] bytes(List<String> rowHashes) {
        byte[] bytes = new byte[rowHashes.size() * HASH_BYTES];
        for (int i = 0; i < rowHashes.size(); i++) {
            String hash = rowHashes.get(i);
            if (hash.length() != HASH_BYTES * 2) {
                throw new IllegalArgumentException("a row hash has " + HASH_BYTES * 2 + " hex digits, not "
                        + hash.length() + ": " + hash);
            }
            System.arraycopy(HEX.parseHex(hash), 0, bytes, i * HASH_BYTES, HASH_BYTES);
        }
        return bytes;
    }

    private void digestEncoded(byte[] into, int at) {
        digest.update(encoded, 0, length);
        try {
            digest.digest(into, at, HASH_BYTES);
        } catch (DigestException e) {
            throw new IllegalStateException("no room for a SHA-256 hash at " + at + " of " + into.length, e);
        }
    }

    private void putNumber(long value) {
        put((byte) 'I');
        putDecimal(value);
        put((byte) ';');
    }

    /** {@code N} for NULL, else the text's UTF-8 bytes after their count. */
    private void putText(String value) {
        if (value == null) {
            put((byte) 'N');
            return;
        }
        byte[] text = value.getBytes(StandardCharsets.UTF_8);
        // one room check for the whole text with its S, count (up to 20 digits) and colon: a dozen texts an
        // event, most of them short codes and ids
        room(text.length + 22);
        encoded[length++] = 'S';
        putCount(text.length);
        encoded[length++] = ':';
        System.arraycopy(text, 0, encoded, length, text.length);
        length += text.length;
    }

    /** A text's byte count; below 100 without the general number's loop, as most counts are. */
    private void putCount(int count) {
        if (count >= 100) {
            putDecimal(count);
            return;
        }
        if (count >= 10) {
            encoded[length++] = (byte) ('0' + count / 10);
        }
        encoded[length++] = (byte) ('0' + count % 10);
    }

    private void put(byte value) {
        room(1);
        encoded[length++] = value;
    }

    private void put(byte[] bytes) {
        room(bytes.length);
        System.arraycopy(bytes, 0, encoded, length, bytes.length);
        length += bytes.length;
    }

    /** Writes a number's decimal digits as {@link Long#toString} does, without a String per number. */
    private void putDecimal(long value) {
        room(20);
        if (value < 0) {
            encoded[length++] = '-';
        }
        // counted and written on the negative side: Long.MIN_VALUE has no positive counterpart
        long rest = value < 0 ? value : -value;
        int digits = 1;
        while (digits < TENS.length && rest <= -TENS[digits]) {
            digits++;
        }
        // written from the last digit back: no second pass to reverse them
        int at = length + digits;
        length = at;
        do {
            encoded[--at] = (byte) ('0' - rest % 10);
            rest /= 10;
        } while (rest != 0);
    }

    private void room(int more) {
        if (length + more > encoded.length) {
            encoded = Arrays.copyOf(encoded, Math.max(encoded.length * 2, length + more));
        }
    }

    /** The hash the first entry follows: it covers what was stored before the chain began. */
    String genesis(long eventsBefore, long decisionsBefore) {
        return hash("genesis", eventsBefore, decisionsBefore);
    }

    /** What an entry's {@code row_marks} holds: each row's mark, in order. */
    static String rowMarks(byte[] rowHashes) {
        byte[] marks = new byte[rowHashes.length / HASH_BYTES * MARK];
        for (int at = 0, to = 0; at < rowHashes.length; at += HASH_BYTES) {
            to = hex(rowHashes, at, MARK / 2, marks, to);
        }
        return new String(marks, StandardCharsets.US_ASCII);
    }

    /** Writes {@code count} bytes from {@code at} as lower-case hex digits, as {@link HexFormat} does. */
    private static int hex(byte[] bytes, int at, int count, byte[] into, int to) {
        int next = to;
        for (int i = at; i < at + count; i++) {
            into[next++] = HEX_DIGITS[(bytes[i] >> 4) & 0xf];
            into[next++] = HEX_DIGITS[bytes[i] & 0xf];
        }
        return next;
    }

    static String mark(String rowHash) {
        return rowHash.substring(0, MARK);
    }

    /** The marks of a {@code row_marks} column, one per row. */
    static List<String> marks(String rowMarks) {
        String[] marks = new String[rowMarks.length() / MARK];
        Arrays.setAll(marks, i -> rowMarks.substring(i * MARK, (i + 1) * MARK));
        return List.of(marks);
    }

    /** The ids of a {@code row_ids} column; none for an empty one. */
    static List<String> ids(String rowIds) {
        return rowIds.isEmpty() ? List.of() : List.of(rowIds.split("\n", -1));
    }
}
