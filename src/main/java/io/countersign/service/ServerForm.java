package io.countersign.service;

import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.McpServerRecord;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What an admin fills in to add or edit an MCP server, as given: every field may be left out ({@code null}). When
 * a server is added, a left-out field takes its default (enabled, not declared, the server's name as group,
 * {@link McpServerRecord#DEFAULT_DATA_CLASS}, the default timeouts); when one is edited, it keeps its value. A
 * command makes the server a stdio server, a URL a Streamable HTTP server; arguments and environment belong to the
 * first, headers to the second.
 *
 * @param command        stdio: the program to start
 * @param args           stdio: its arguments
 * @param env            stdio: extra environment, each value plain or a reference {@code env:NAME}
 * @param url            Streamable HTTP: the endpoint
 * @param headers        Streamable HTTP: extra headers, each value plain or a reference {@code env:NAME}
 * @param approvalBound  the declaration: {@code true} approval-bound, {@code false} not approval-bound; left out
 *                       on a new server, it is not declared, and its tools run without approval
 * @param dataClass      the code of a data class, such as {@code sourceCode}
 */
public record ServerForm(String command, List<String> args, Map<String, String> env, String url,
                         Map<String, String> headers, Boolean enabled, Boolean approvalBound, String group,
                         String dataClass, Duration callTimeout, Duration connectTimeout) {

    public ServerForm {
        args = args == null ? null : List.copyOf(args);
        env = env == null ? null : Map.copyOf(env);
        headers = headers == null ? null : Map.copyOf(headers);
    }

    /** A form that changes nothing. */
    public static ServerForm empty() {
        return new ServerForm(null, null, null, null, null, null, null, null, null, null, null);
    }

    /** A stdio server started with this command and arguments. */
    public static ServerForm stdio(String command, List<String> args) {
        return empty().withStdio(command, args, null);
    }

    /** A Streamable HTTP server at this URL. */
    public static ServerForm streamableHttp(String url) {
        return empty().withStreamableHttp(url, null);
    }

    public ServerForm withStdio(String newCommand, List<String> newArgs, Map<String, String> newEnv) {
        return new ServerForm(newCommand, newArgs, newEnv, url, headers, enabled, approvalBound, group, dataClass,
                callTimeout, connectTimeout);
    }

    public ServerForm withStreamableHttp(String newUrl, Map<String, String> newHeaders) {
        return new ServerForm(command, args, env, newUrl, newHeaders, enabled, approvalBound, group, dataClass,
                callTimeout, connectTimeout);
    }

    public ServerForm withApprovalBound(Boolean value) {
        return new ServerForm(command, args, env, url, headers, enabled, value, group, dataClass, callTimeout,
                connectTimeout);
    }

    public ServerForm withEnabled(Boolean value) {
        return new ServerForm(command, args, env, url, headers, value, approvalBound, group, dataClass, callTimeout,
                connectTimeout);
    }

    /** A new server's record. */
    McpServerRecord toRecord(String name) {
        if (command == null && url == null) {
            throw new IllegalArgumentException("server \"" + name + "\" needs a command to start (stdio) or a URL"
                    + " (Streamable HTTP)");
        }
        McpServerRecord.Transport transport = command != null ? stdio(null, name) : streamableHttp(null, name);
        return applyTo(McpServerRecord.withDefaults(name, transport), transport);
    }

    /** The record with the fields this form gives changed. */
    McpServerRecord applyTo(McpServerRecord current) {
        McpServerRecord.Transport transport = current.transport();
        if (command != null || url != null || args != null || env != null || headers != null) {
            transport = command != null || url == null && headers == null
                    ? stdio(current.transport(), current.name()) : streamableHttp(current.transport(), current.name());
        }
        return applyTo(current, transport);
    }

    private McpServerRecord applyTo(McpServerRecord current, McpServerRecord.Transport transport) {
        return new McpServerRecord(current.name(), transport, pick(enabled, current.enabled()),
                approvalBound == null ? current.declaration() : ApprovalDeclaration.of(approvalBound),
                pick(group, current.group()),
                dataClass == null ? current.dataClass() : DataClass.fromCode(dataClass),
                pick(callTimeout, current.callTimeout()), pick(connectTimeout, current.connectTimeout()));
    }

    private McpServerRecord.Stdio stdio(McpServerRecord.Transport current, String name) {
        if (url != null || headers != null) {
            throw new IllegalArgumentException("server \"" + name + "\": give a command (stdio, with arguments and"
                    + " environment) or a URL (Streamable HTTP, with headers), not both");
        }
        McpServerRecord.Stdio was = current instanceof McpServerRecord.Stdio stdio ? stdio : null;
        if (command == null && was == null) {
            throw new IllegalArgumentException("server \"" + name + "\" is reached over Streamable HTTP; arguments"
                    + " and environment need a command to start instead");
        }
        return new McpServerRecord.Stdio(pick(command, was == null ? null : was.command()),
                pick(args, was == null ? List.of() : was.args()), pick(env, was == null ? Map.of() : was.env()));
    }

    private McpServerRecord.StreamableHttp streamableHttp(McpServerRecord.Transport current, String name) {
        if (command != null || args != null || env != null) {
            throw new IllegalArgumentException("server \"" + name + "\": give a command (stdio, with arguments and"
                    + " environment) or a URL (Streamable HTTP, with headers), not both");
        }
        McpServerRecord.StreamableHttp was = current instanceof McpServerRecord.StreamableHttp http ? http : null;
        if (url == null && was == null) {
            throw new IllegalArgumentException("server \"" + name + "\" is started as a command (stdio); headers"
                    + " need a URL to reach it over Streamable HTTP instead");
        }
        return new McpServerRecord.StreamableHttp(url == null ? was.url() : parse(url, name),
                pick(headers, was == null ? Map.of() : was.headers()));
    }

    private static URI parse(String url, String name) {
        try {
            return new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the URL of server \"" + name + "\" is not a URL: " + e.getMessage(),
                    e);
        }
    }

    private static <T> T pick(T given, T current) {
        return given != null ? given : current;
    }
}
