package io.countersign.model;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.intent.ToolCallPolicy;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.run.ToolLoop;
import io.countersign.model.NotesConversation.Recording;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The intent seams built and asked every round but deciding nothing leave the loop byte-identical to one without
 * them; and a seam that does decide shows in the bytes, so the comparison with the golden recording can fail.
 */
class InertIntentSeamsTest {
    private static final ModelConfiguration ELSEWHERE = new ModelConfiguration("elsewhere", "openai",
            "gpt-4o-mini", "http://localhost:9/v1", TrustZone.EXTERNAL_GLOBAL, null, null, null, null);
    private static final List<ToolCallPolicy> NEVER_MATCHING = List.of(
            ToolCallPolicy.modelFor("never_switches", context -> false, ELSEWHERE),
            ToolCallPolicy.redirect("never_redirects", context -> false, Set.of(), "notes_list"));

    private MockWebServer server;

    @BeforeEach
    void startServer() throws IOException {
        server = Fixtures.startServer();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    /** A way to wire the seams in that should change nothing. */
    record Inert(String label, List<ToolCallPolicy> policies, UnaryOperator<ToolLoop.Builder> seams) {
        @Override
        public String toString() {
            return label;
        }
    }

    static Stream<Inert> inertSeams() {
        UnaryOperator<ToolLoop.Builder> resolver = builder -> builder.roleModelResolver(context -> null);
        UnaryOperator<ToolLoop.Builder> hook = builder -> builder.dispatchHook((proposed, emitted, context) -> proposed);
        return Stream.of(
                new Inert("policies that never match", NEVER_MATCHING, UnaryOperator.identity()),
                new Inert("a resolver that leaves the default", List.of(), resolver),
                new Inert("a hook that keeps every call", List.of(), hook),
                new Inert("all three", NEVER_MATCHING, builder -> hook.apply(resolver.apply(builder))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inertSeams")
    void seamsThatDecideNothingSendAndWriteWhatALoopWithoutThemDoes(Inert inert) {
        Recording recording = new NotesConversation().record(server, inert.policies(), inert.seams());
        recording.writeTo(Path.of("target", "byte-identity", inert.label().replace(' ', '-')));

        Recording golden = Recording.load(NotesConversation.GOLDEN);
        recording.assertSameRequestsAs(golden);
        assertThat(recording.transcript()).isEqualTo(golden.transcript());
        assertThat(recording.events()).isEqualTo(golden.events());
    }

    @Test
    void aResolverThatChoosesAnotherModelShowsInTheBytes() throws IOException {
        ModelConfiguration smaller = new ModelConfiguration("team-llm-small", "vllm", "qwen2.5-7b-instruct",
                server.url("/v1").toString(), TrustZone.PRIVATE_HOSTED, 0.2, 512, null, null);

        Recording recording = new NotesConversation().record(server, List.of(),
                builder -> builder.roleModelResolver(context -> smaller));

        assertThat(recording.requests()).isNotEqualTo(Recording.load(NotesConversation.GOLDEN).requests());
        assertThat(new ObjectMapper().readTree(recording.requests().get(0).utf8()).path("model").asText())
                .isEqualTo("qwen2.5-7b-instruct");
    }
}
