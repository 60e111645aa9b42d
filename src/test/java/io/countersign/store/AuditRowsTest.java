package io.countersign.store;

import static io.countersign.store.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The canonical encoding, version 1, pinned to hashes computed outside Java (Python's hashlib over the encoding
 * written out by hand): a change to the encoding must come with a new version, not change these.
 */
class AuditRowsTest {
    private static String hashOf(GovernanceEvent event) {
        byte[] hash = new byte[AuditRows.HASH_BYTES];
        new AuditRows().event(event, hash, 0);
        return HexFormat.of().formatHex(hash);
    }

    @Test
    void anEventHashesAsTheDocumentedEncodingSays() {
        // countersign-audit-1 S17:governance_events S2:e1 I1772366400000000000; S17:invocation_denied
        // S17:outside_workspace, then N for each of the seven empty columns
        String hash = hashOf(event("e1", Instant.parse("2026-03-01T12:00:00Z"))
                .type(EventType.INVOCATION_DENIED).reason("outside_workspace").build());

        assertThat(hash).isEqualTo("a1d89c265352de33252408767cb8c49d574bcbaad892df766b8914cc5988a43c");
    }

    @Test
    void everyColumnOfAnEventIsCoveredInItsOrder() {
        // a time before 1970 (a negative number) and texts beyond ASCII, counted by their UTF-8 bytes
        String hash = hashOf(event("e-\u00fc", Instant.parse("1969-12-31T23:59:59.000000001Z"))
                .type(EventType.TOOL_DENIED).reason("outside_workspace").tool("fs.write").rule("workspace.boundary")
                .run("run-7").agent("triage").actor("Zo\u00eb").model("gpt-eu").detail("verdicts=\u2713,\u2717")
                .build());

        assertThat(hash).isEqualTo("ea8d00f865ba531892ba2ea7b7c288658caaa83a02b5dc8f71fc234b3b8f59d1");
    }

    @Test
    void anEntrysRowHashCoversItsRowsHashesInOrder() {
        AuditRows hashes = new AuditRows();

        assertThat(hashes.ofRows(List.of(hashes.genesis(4, 0), hashes.genesis(0, 4))))
                .isEqualTo("7b18e5e4374873ca2beaf49c811392daeb211ba2a70c53c2e0957b12ff6afe16");
    }

    @Test
    void aRowHashThatIsNotOneIsRefusedByName() {
        assertThatThrownBy(() -> new AuditRows().ofRows(List.of("abc")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a row hash has 64 hex digits, not 3: abc");
    }

    @Test
    void theGenesisCoversWhatWasStoredBefore() {
        assertThat(new AuditRows().genesis(4, 0))
                .isEqualTo("b511a376400a40059e517a1817b89f07be8c7b109a8cb5cbe9cf1ca37938fe04");
    }

    @Test
    void numbersAreWrittenInDecimalWithTheirSignAndTextsByTheirLengthInBytes() {
        // countersign-audit-1 S5:check I-1; I-9223372036854775808; I0; I1234567890; S2:é
        assertThat(new AuditRows().hash("check", -1L, Long.MIN_VALUE, 0L, 1234567890, "\u00e9"))
                .isEqualTo("5bf0fd94b79596661daff2fb31379592c0c2275e44ee7acca62b211f806660fe");
    }

    @Test
    void everyNumberOfDigitsIsWrittenAsLongToStringWritesIt() throws NoSuchAlgorithmException {
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        List<Long> numbers = new ArrayList<>(List.of(Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1));
        for (long ten = 1; ten <= Long.MAX_VALUE / 10; ten *= 10) {
            numbers.addAll(List.of(ten - 1, ten, ten + 1, 1 - ten, -ten, -ten - 1, ten * 10 - 1));
        }

        for (long number : numbers) {
            byte[] encoding = ("countersign-audit-1I" + number + ";").getBytes(StandardCharsets.US_ASCII);
            assertThat(new AuditRows().hash(number)).as("%d", number)
                    .isEqualTo(HexFormat.of().formatHex(sha256.digest(encoding)));
        }
    }

    @Test
    void everyLengthOfATextIsWrittenInDecimal() throws NoSuchAlgorithmException {
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        for (int count : new int[] {0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 123_456}) {
            String text = "x".repeat(count);
            byte[] encoding = ("countersign-audit-1S" + count + ":" + text).getBytes(StandardCharsets.US_ASCII);
            assertThat(new AuditRows().hash(text)).as("%d", count)
                    .isEqualTo(HexFormat.of().formatHex(sha256.digest(encoding)));
        }
    }
}
