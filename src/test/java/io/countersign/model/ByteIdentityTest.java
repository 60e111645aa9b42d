package io.countersign.model;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.model.NotesConversation.Recording;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With no intent policies the loop is byte-identical to a loop without the feature (SPEC section 8). The golden
 * recording in {@code src/test/resources/io/countersign/model/byte-identity} was made by the tool loop as it was
 * before the intent seams were wired in (its README says how); today's loop, with an empty policy list and no
 * resolver or hook, must reproduce it exactly over real HTTP. Each run also leaves its recording in
 * {@code target/byte-identity} to diff against the golden one.
 */
class ByteIdentityTest {
    private MockWebServer server;

    @BeforeEach
    void startServer() throws IOException {
        server = Fixtures.startServer();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private Recording recordWithoutPolicies() {
        Recording recording = new NotesConversation().record(server, List.of(), UnaryOperator.identity());
        recording.writeTo(Path.of("target", "byte-identity", "without-policies"));
        return recording;
    }

    @Test
    void sendsTheRequestsOfALoopWithoutTheFeatureByteForByte() {
        recordWithoutPolicies().assertSameRequestsAs(Recording.load(NotesConversation.GOLDEN));
    }

    @Test
    void writesTheTranscriptOfALoopWithoutTheFeature() {
        assertThat(recordWithoutPolicies().transcript()).isEqualTo(Recording.load(NotesConversation.GOLDEN).transcript());
    }

    @Test
    void recordsTheEventsOfALoopWithoutTheFeature() {
        assertThat(recordWithoutPolicies().events()).isEqualTo(Recording.load(NotesConversation.GOLDEN).events());
    }
}
