package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.tool.CallerChannel;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import reactor.core.publisher.Mono;

/**
 * The way back to the host of one {@code tools/call}: the log messages of the fronted server that carries it out,
 * at the level the host set ({@code logging/setLevel}, applied by the SDK's exchange); that server's progress,
 * under the host's own {@code progressToken}; that server's sampling requests and questions, which the host
 * answers when it declared it can ({@code sampling}, {@code elicitation} in form mode); and the gateway's own
 * "still alive" steps while the call waits for a person. Progress values stay increasing for the host's token:
 * the gateway's steps are 1, 2, 3…; once the server reports, the gateway's steps stop, and the server's values
 * (and total) are passed on as they are, or shifted by the gateway's last step when they would not exceed it; a
 * value that does not exceed the last one sent (which MCP forbids a server) is dropped. Nothing here blocks:
 * notifications are sent without waiting for the write.
 */
final class HostChannel implements CallerChannel {
    private static final Logger LOG = Logger.getLogger(HostChannel.class.getName());

    private final McpAsyncServerExchange exchange;
    private final Object token;
    private final String traceParent;
    /** The last progress value sent for the host's token, none yet; guarded by this. */
    private double sent = Double.NEGATIVE_INFINITY;
    /** What the server's values are shifted by, null until the server reported progress; guarded by this. */
    private Double shift;
    private volatile boolean withdrawn;

    /**
     * {@code token} is the host's {@code progressToken}, {@code traceParent} its W3C {@code traceparent}; each null
     * when it sent none.
     */
    HostChannel(McpAsyncServerExchange exchange, Object token, String traceParent) {
        this.exchange = exchange;
        this.token = token;
        this.traceParent = traceParent;
    }

    @Override
    public String traceParent() {
        return traceParent;
    }

    /** The host gave the call up: from now on it must not start. */
    void withdraw() {
        withdrawn = true;
    }

    @Override
    public boolean withdrawn() {
        return withdrawn;
    }

    @Override
    public boolean wantsProgress() {
        return token != null;
    }

    @Override
    public synchronized void progress(double progress, Double total, String message) {
        if (token == null) {
            return;
        }
        if (shift == null) {
            shift = progress > sent || sent == Double.NEGATIVE_INFINITY ? 0 : sent;
        }
        double value = progress + shift;
        if (value <= sent) {
            LOG.log(Level.FINE, "a server's progress {0} did not exceed {1}; not passed on", new Object[] {value,
                    sent});
            return;
        }
        send(value, total == null ? null : total + shift, message, failure -> LOG.log(Level.FINE,
                "a server's progress did not reach the host: " + failure.getMessage(), failure));
    }

    @Override
    public void log(JsonNode message) {
        McpSchema.LoggingMessageNotification notification;
        try {
            notification = McpJsonDefaults.getMapper().convertValue(message,
                    McpSchema.LoggingMessageNotification.class);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "a server's log message was not valid MCP; not passed on", e);
            return;
        }
        exchange.loggingNotification(notification).subscribe(null, failure -> LOG.log(Level.FINE,
                "a server's log message did not reach the host: " + failure.getMessage(), failure));
    }

    @Override
    public boolean answers(Request kind) {
        McpSchema.ClientCapabilities declared = exchange.getClientCapabilities();
        if (declared == null) {
            return false;
        }
        return switch (kind) {
            case SAMPLING -> declared.sampling() != null;
            // an elicitation capability without modes means form mode
            case ELICITATION -> declared.elicitation() != null
                    && (declared.elicitation().form() != null || declared.elicitation().url() == null);
        };
    }

    @Override
    public CompletableFuture<JsonNode> ask(Request kind, JsonNode params) {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        Mono<?> answer;
        try {
            answer = switch (kind) {
                case SAMPLING -> exchange.createMessage(json.convertValue(params,
                        McpSchema.CreateMessageRequest.class));
                case ELICITATION -> exchange.createElicitation(json.convertValue(params,
                        McpSchema.ElicitFormRequest.class));
            };
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("the server's " + kind.method()
                    + " is not valid MCP, so it was not passed on to the host", e));
        }
        return answer.map(result -> json.convertValue(result, JsonNode.class)).toFuture();
    }

    /**
     * The gateway's own step while the call waits ({@code message} says for what), unless the server has reported
     * progress; {@code failed} hears it when the host's stream cannot take it.
     */
    synchronized void step(String message, Consumer<Throwable> failed) {
        if (token == null || shift != null) {
            return;
        }
        send(sent == Double.NEGATIVE_INFINITY ? 1 : Math.floor(sent) + 1, null, message, failed);
    }

    private void send(double value, Double total, String message, Consumer<Throwable> failed) {
        sent = value;
        exchange.progressNotification(new McpSchema.ProgressNotification(token, value, total, message))
                .subscribe(null, failed);
    }
}
