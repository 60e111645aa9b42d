package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.tool.CallerChannel;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpLoggableSession;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** The progress a host hears for its token, and what it is asked, through one call's {@link HostChannel}. */
class HostChannelTest {
    private final List<McpSchema.ProgressNotification> sent = new ArrayList<>();

    @Test
    void theServersProgressFollowsTheGatewaysStepsShiftedPastThemAndNeverGoesBack() {
        HostChannel host = channel("h1", McpSchema.ClientCapabilities.builder().build());

        host.step("waiting for a person's decision", failure -> { });
        host.step("the call is running", failure -> { });
        host.progress(0, 100.0, "step 0");
        host.progress(50, 100.0, "step 50");
        host.step("the call is running", failure -> { });
        host.progress(40, 100.0, "step 40");
        host.progress(100, 100.0, "step 100");

        assertThat(sent).extracting(McpSchema.ProgressNotification::progress).containsExactly(1.0, 2.0, 52.0, 102.0);
        assertThat(sent).extracting(McpSchema.ProgressNotification::total).containsExactly(null, null, 102.0, 102.0);
        assertThat(sent).extracting(McpSchema.ProgressNotification::message).containsExactly(
                "waiting for a person's decision", "the call is running", "step 50", "step 100");
        assertThat(sent).extracting(McpSchema.ProgressNotification::progressToken).containsOnly("h1");
    }

    @Test
    void aServerThatReportsFirstIsPassedOnAsItIs() {
        HostChannel host = channel(7, McpSchema.ClientCapabilities.builder().build());

        host.progress(0, null, null);
        host.progress(0.5, null, "half");

        assertThat(sent).extracting(McpSchema.ProgressNotification::progress).containsExactly(0.0, 0.5);
        assertThat(sent.get(1).total()).isNull();
    }

    @Test
    void aHostWithoutATokenHearsNoProgress() {
        HostChannel host = channel(null, McpSchema.ClientCapabilities.builder().build());

        host.step("waiting", failure -> { });
        host.progress(10, 100.0, "ten");

        assertThat(host.wantsProgress()).isFalse();
        assertThat(sent).isEmpty();
    }

    @Test
    void theHostAnswersOnlyWhatItDeclared() {
        HostChannel nothing = channel(null, McpSchema.ClientCapabilities.builder().build());
        HostChannel both = channel(null, McpSchema.ClientCapabilities.builder().sampling().elicitation().build());
        HostChannel urlOnly = channel(null, McpSchema.ClientCapabilities.builder().elicitation(false, true).build());

        assertThat(nothing.answers(CallerChannel.Request.SAMPLING)).isFalse();
        assertThat(nothing.answers(CallerChannel.Request.ELICITATION)).isFalse();
        assertThat(both.answers(CallerChannel.Request.SAMPLING)).isTrue();
        assertThat(both.answers(CallerChannel.Request.ELICITATION)).isTrue();
        assertThat(urlOnly.answers(CallerChannel.Request.ELICITATION)).isFalse();
    }

    private HostChannel channel(Object token, McpSchema.ClientCapabilities capabilities) {
        return new HostChannel(new McpAsyncServerExchange("s1", new RecordingSession(),
                capabilities, new McpSchema.Implementation("host", "1"), McpTransportContext.EMPTY), token, null);
    }

    /** The host's session as the exchange sees it: it keeps the progress notifications it is given. */
    private final class RecordingSession implements McpLoggableSession {
        @Override
        public <T> Mono<T> sendRequest(String method, Object params, TypeRef<T> type) {
            return Mono.error(new UnsupportedOperationException(method));
        }

        @Override
        public Mono<Void> sendNotification(String method, Object params) {
            if (params instanceof McpSchema.ProgressNotification progress) {
                sent.add(progress);
            }
            return Mono.empty();
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        public void close() {
        }

        @Override
        public void setMinLoggingLevel(McpSchema.LoggingLevel level) {
        }

        @Override
        public boolean isNotificationForLevelAllowed(McpSchema.LoggingLevel level) {
            return true;
        }
    }
}
