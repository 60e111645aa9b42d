package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Event streams parsed as the HTML standard says, with the cursor a resumption continues from. */
class SseReaderTest {
    private final SseReader.Cursor cursor = new SseReader.Cursor(Duration.ofSeconds(1));

    private List<String> read(String stream) throws IOException {
        List<String> events = new ArrayList<>();
        try (SseReader reader = new SseReader(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)),
                cursor)) {
            String data;
            while ((data = reader.next()) != null) {
                events.add(data);
            }
        }
        return events;
    }

    @Test
    void aPrimingEventMovesTheCursorAndHandsNothingOn() throws IOException {
        assertThat(read("id: e1\nretry: 500\ndata: \n\n")).isEmpty();

        assertThat(cursor.lastId()).isEqualTo("e1");
        assertThat(cursor.retry()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void dataLinesAreJoinedAndOnlyMessageEventsAreHandedOn() throws IOException {
        assertThat(read(": keep-alive\r\nevent: message\r\ndata: {\"a\":\r\ndata: 1}\r\nid: e2\r\n\r\n"
                + "event: other\ndata: skipped\n\ndata:no space\n\n"))
                .containsExactly("{\"a\":\n1}", "no space");
        assertThat(cursor.lastId()).isEqualTo("e2");
    }

    @Test
    void anEventCutOffByTheEndOfTheStreamIsNotHandedOn() throws IOException {
        assertThat(read("id: e3\ndata: {\"half\"")).isEmpty();
        assertThat(cursor.lastId()).isEqualTo("e3");
    }

    @Test
    void aRetryThatIsNotANumberIsIgnoredAndAnEmptyIdClearsTheCursor() throws IOException {
        read("id: e4\nretry: soon\ndata: x\n\nid\ndata: y\n\n");

        assertThat(cursor.retry()).isEqualTo(Duration.ofSeconds(1));
        assertThat(cursor.lastId()).isNull();
    }
}
