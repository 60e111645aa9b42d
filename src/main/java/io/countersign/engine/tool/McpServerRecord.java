package io.countersign.engine.tool;

import io.countersign.engine.HeaderValues;
import io.countersign.engine.Names;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.ToolSettings;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An operator's record of one MCP server: how to reach it, whether it is enabled, and the declaration that judges
 * its tools: approval-bound, not approval-bound, or not declared, in which case its tools run without approval.
 * What its tools do or what the server hints about them ({@code readOnlyHint} and the like) changes nothing. The record holds no secret: a secret
 * header or environment value is a reference ({@code env:NAME}) that is resolved when the server is connected.
 * The {@code with...} methods return a copy with one field changed, checked again.
 *
 * @param name           {@code [a-z][a-z0-9_-]*}, at most {@value #MAX_NAME_LENGTH} characters; prefixes the
 *                       names of the server's tools
 * @param transport      how to reach the server
 * @param enabled        a disabled server is not connected and offers no tools
 * @param declaration    the operator's declaration: whether every tool of this server needs an approval
 * @param group          the tool group of every tool of this server
 * @param dataClass      the data class of every tool of this server
 * @param callTimeout    how long one tool call may take
 * @param connectTimeout how long starting or reaching the server and the handshake may take
 */
public record McpServerRecord(String name, Transport transport, boolean enabled, ApprovalDeclaration declaration,
                              String group, DataClass dataClass, Duration callTimeout, Duration connectTimeout) {
    /** How a header or environment value names the variable that holds a secret: {@code env:NAME}. */
    public static final String SECRET_REFERENCE_PREFIX = HeaderValues.SECRET_REFERENCE_PREFIX;

    public static final int MAX_NAME_LENGTH = 32;
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /** Until an admin classifies a server, its tools are treated as touching the most sensitive data. */
    public static final DataClass DEFAULT_DATA_CLASS = DataClass.SECRET_ADJACENT;
    private static final Duration MAX_CALL_TIMEOUT = Duration.ofHours(1);
    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofMinutes(5);
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]*");

    public McpServerRecord {
        if (name == null || name.length() > MAX_NAME_LENGTH || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("server name \"" + name + "\" must match [a-z][a-z0-9_-]* and be 1 to "
                    + MAX_NAME_LENGTH + " characters long");
        }
        Objects.requireNonNull(transport, "server \"" + name + "\" needs a transport (stdio or Streamable HTTP)");
        transport.validate(name);
        Objects.requireNonNull(declaration, "server \"" + name + "\" needs a declaration (approval-bound, not"
                + " approval-bound, or not declared)");
        Names.requireCode(group, "group of server \"" + name + "\"");
        Objects.requireNonNull(dataClass, "server \"" + name + "\" needs a data class");
        requireWithin(callTimeout, MAX_CALL_TIMEOUT, "call timeout", name);
        requireWithin(connectTimeout, MAX_CONNECT_TIMEOUT, "connect timeout", name);
    }

    /**
     * A new stdio server: enabled, not declared, its own name as group, {@link #DEFAULT_DATA_CLASS}, default
     * timeouts, no extra environment.
     */
    public static McpServerRecord stdio(String name, String command, List<String> args) {
        return withDefaults(name, new Stdio(command, args, Map.of()));
    }

    /** A new Streamable HTTP server with the same defaults as {@link #stdio} and no extra headers. */
    public static McpServerRecord streamableHttp(String name, URI url) {
        return withDefaults(name, new StreamableHttp(url, Map.of()));
    }

    /**
     * A new server reached through {@code transport}: enabled, not declared (its tools run without approval until
     * an operator declares it), its own name as group,
     * {@link #DEFAULT_DATA_CLASS}, default timeouts.
     */
    public static McpServerRecord withDefaults(String name, Transport transport) {
        return new McpServerRecord(name, transport, true, ApprovalDeclaration.NOT_DECLARED, name, DEFAULT_DATA_CLASS, DEFAULT_CALL_TIMEOUT,
                DEFAULT_CONNECT_TIMEOUT);
    }

    /**
     * The name of the server a remote tool comes from, read off its registry name {@code <server>.<tool>} (a
     * server's name has no dot); the whole name when it has no dot.
     */
    public static String serverOf(String toolName) {
        int dot = toolName.indexOf('.');
        return dot < 0 ? toolName : toolName.substring(0, dot);
    }

    /** The given settings with this record's approval declaration, as {@code ToolApprovalRule} reads it. */
    public ToolSettings declareIn(ToolSettings settings) {
        return settings.withServerDeclaration(name, declaration);
    }

    public McpServerRecord withTransport(Transport value) {
        return new McpServerRecord(name, value, enabled, declaration, group, dataClass, callTimeout, connectTimeout);
    }

    public McpServerRecord withEnabled(boolean value) {
        return new McpServerRecord(name, transport, value, declaration, group, dataClass, callTimeout, connectTimeout);
    }

    public McpServerRecord withDeclaration(ApprovalDeclaration value) {
        return new McpServerRecord(name, transport, enabled, value, group, dataClass, callTimeout, connectTimeout);
    }

    /** Declares the server approval-bound or not. */
    public McpServerRecord withApprovalBound(boolean value) {
        return withDeclaration(ApprovalDeclaration.of(value));
    }

    public McpServerRecord withGroup(String value) {
        return new McpServerRecord(name, transport, enabled, declaration, value, dataClass, callTimeout, connectTimeout);
    }

    public McpServerRecord withDataClass(DataClass value) {
        return new McpServerRecord(name, transport, enabled, declaration, group, value, callTimeout, connectTimeout);
    }

    public McpServerRecord withCallTimeout(Duration value) {
        return new McpServerRecord(name, transport, enabled, declaration, group, dataClass, value, connectTimeout);
    }

    public McpServerRecord withConnectTimeout(Duration value) {
        return new McpServerRecord(name, transport, enabled, declaration, group, dataClass, callTimeout, value);
    }

    private static void requireWithin(Duration timeout, Duration max, String what, String server) {
        if (timeout == null || timeout.isNegative() || timeout.isZero() || timeout.compareTo(max) > 0) {
            throw new IllegalArgumentException("the " + what + " of server \"" + server + "\" must be more than 0 and"
                    + " at most " + max.toSeconds() + " s, got " + (timeout == null ? "none" : timeout));
        }
    }

    /** How a server is reached. */
    public sealed interface Transport permits Stdio, StreamableHttp {
        /** Fails with a message naming the server when the transport cannot work. */
        void validate(String server);
    }

    /**
     * A local process speaking MCP over its standard input and output. It starts with a small base environment
     * (PATH, HOME, locale and the like, never the console's own secrets) plus {@code env}.
     *
     * @param env extra environment; a value {@code env:NAME} is taken from the console's environment variable
     *            {@code NAME} at connect time, and a variable whose name looks secret must use such a reference
     */
    public record Stdio(String command, List<String> args, Map<String, String> env) implements Transport {
        private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

        public Stdio {
            args = List.copyOf(Objects.requireNonNull(args, "args"));
            env = Map.copyOf(Objects.requireNonNull(env, "env"));
        }

        @Override
        public void validate(String server) {
            if (command == null || command.isBlank()) {
                throw new IllegalArgumentException("server \"" + server + "\" needs a command to start");
            }
            env.forEach((variable, value) -> {
                if (!VARIABLE.matcher(variable).matches()) {
                    throw new IllegalArgumentException("environment variable \"" + variable + "\" of server \""
                            + server + "\" must match [A-Za-z_][A-Za-z0-9_]*");
                }
                HeaderValues.requireStorable(value, HeaderValues.looksSecret(variable),
                        "environment variable \"" + variable + "\" of server \"" + server + "\"");
            });
        }
    }

    /**
     * A server reached over MCP's Streamable HTTP transport.
     *
     * @param headers extra request headers; a value {@code env:NAME} is taken from the console's environment
     *                variable {@code NAME} at connect time, and a header that carries credentials must use such a
     *                reference
     */
    public record StreamableHttp(URI url, Map<String, String> headers) implements Transport {
        /** Set by the HTTP client or the MCP transport itself. */
        private static final Set<String> MANAGED = Set.of("connection", "content-length", "expect", "host", "upgrade",
                "accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id");

        public StreamableHttp {
            headers = Map.copyOf(new LinkedHashMap<>(Objects.requireNonNull(headers, "headers")));
        }

        @Override
        public void validate(String server) {
            if (url == null || !url.isAbsolute() || url.getHost() == null
                    || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
                throw new IllegalArgumentException("server \"" + server + "\" needs an absolute http or https URL,"
                        + " got " + url);
            }
            if (url.getUserInfo() != null) {
                throw new IllegalArgumentException("the URL of server \"" + server + "\" must not carry credentials;"
                        + " put them in a header with a reference like env:NAME");
            }
            headers.forEach((header, value) -> {
                String where = "header \"" + header + "\" of server \"" + server + "\"";
                if (!HeaderValues.isHeaderName(header)) {
                    throw new IllegalArgumentException(where + " is not a valid header name");
                }
                if (MANAGED.contains(header.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException(where + " is set by the client itself and cannot be configured");
                }
                HeaderValues.requireStorable(value, HeaderValues.looksSecret(header), where);
            });
        }
    }
}
