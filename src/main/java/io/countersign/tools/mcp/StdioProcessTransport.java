package io.countersign.tools.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

/**
 * MCP over a child process's standard input and output: one JSON-RPC message per line. Unlike the SDK's stdio
 * transport it tells when the peer is gone ({@link #gone()}): the process ended, or wrote a line that is not
 * JSON-RPC (after which nothing it says can be trusted, so it is stopped). Open requests then fail at once
 * instead of waiting for their timeout.
 */
final class StdioProcessTransport implements McpClientTransport {
    private static final Logger LOG = Logger.getLogger(StdioProcessTransport.class.getName());
    /** What a server inherits from the console's environment: enough to run, never the console's secrets. */
    private static final List<String> BASE_ENVIRONMENT = List.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM",
            "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT",
            "USERPROFILE", "APPDATA", "LOCALAPPDATA", "PROGRAMFILES");
    private static final long STOP_WAIT_MILLIS = 2_000;
    /** A longer line is not read into memory: the server is stopped instead. */
    static final int MAX_MESSAGE_CHARS = 32 * 1024 * 1024;
    /** How much of a server's stderr is kept to explain why it would not start. */
    static final int KEPT_ERROR_LINES = 5;
    private static final int MAX_ERROR_LINE_CHARS = 200;

    private final String server;
    private final List<String> command;
    private final Map<String, String> environment;
    private final McpJsonMapper json;
    private final Sinks.One<String> gone = Sinks.one();
    /** The client may send its first message before the process is up; sending waits for it. */
    private final Sinks.One<Process> started = Sinks.one();
    private final Object writeLock = new Object();
    private volatile Process process;
    private volatile String goneReason;
    private final Deque<String> lastErrorLines = new ArrayDeque<>();
    private volatile Thread errorReader;

    /** {@code environment} holds resolved values; they go only into the child's environment. */
    StdioProcessTransport(String server, String command, List<String> args, Map<String, String> environment,
                          McpJsonMapper json) {
        this.server = server;
        this.command = new ArrayList<>(List.of(command));
        this.command.addAll(args);
        this.environment = Map.copyOf(environment);
        this.json = json;
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return Mono.<Void>fromRunnable(() -> start(handler)).subscribeOn(Schedulers.boundedElastic());
    }

    /** Emits why the peer is gone ("exited with status 1", ...) once, when it is; never while it runs. */
    Mono<String> gone() {
        return gone.asMono();
    }

    boolean isGone() {
        return goneReason != null;
    }

    private void start(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> childEnvironment = builder.environment();
        childEnvironment.clear();
        for (String variable : BASE_ENVIRONMENT) {
            String value = System.getenv(variable);
            if (value != null) {
                childEnvironment.put(variable, value);
            }
        }
        childEnvironment.putAll(environment);
        Process child;
        try {
            child = builder.start();
        } catch (IOException e) {
            McpServerException failure = new McpServerException(McpServerException.Kind.UNREACHABLE, "server \""
                    + server + "\" could not be started: the command \"" + command.get(0) + "\" could not be run");
            started.tryEmitError(failure);
            throw failure;
        }
        process = child;
        if (isGone()) {
            stop(child);
            started.tryEmitError(new McpServerException(McpServerException.Kind.UNREACHABLE, "server \"" + server
                    + "\" was closed while it started"));
            return;
        }
        daemon("mcp-" + server + "-out", () -> readMessages(child, handler)).start();
        errorReader = daemon("mcp-" + server + "-err", () -> drainErrors(child));
        errorReader.start();
        child.onExit().thenAccept(ended -> markGone("exited with status " + ended.exitValue()));
        started.tryEmitValue(child);
    }

    private void readMessages(Process source, Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(source.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = readLine(reader)) != null) {
                if (line.isBlank()) {
                    continue;
                }
                if (line.length() > MAX_MESSAGE_CHARS) {
                    markGone("wrote a message longer than " + MAX_MESSAGE_CHARS + " characters");
                    stop(source);
                    return;
                }
                JSONRPCMessage message;
                try {
                    message = McpSchema.deserializeJsonRpcMessage(json, line);
                } catch (IOException | RuntimeException e) {
                    markGone("wrote a line that is not a JSON-RPC message");
                    stop(source);
                    return;
                }
                handler.apply(Mono.just(message)).subscribe(ignored -> {
                }, error -> LOG.log(Level.FINE, "server {0}: a message could not be handled ({1})",
                        new Object[] {server, error.getClass().getName()}));
            }
            outputClosed(source);
        } catch (IOException e) {
            outputClosed(source);
        }
    }

    /**
     * The next line without its line end, or {@code null} at the end of the stream. Reading stops one character
     * past {@link #MAX_MESSAGE_CHARS}, so an endless line cannot exhaust the memory.
     */
    private static String readLine(BufferedReader reader) throws IOException {
        StringBuilder line = new StringBuilder();
        int next;
        while ((next = reader.read()) != -1) {
            if (next == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            line.append((char) next);
            if (line.length() > MAX_MESSAGE_CHARS) {
                return line.toString();
            }
        }
        return line.length() == 0 ? null : line.toString();
    }

    /**
     * A closed output usually means the process is ending; its exit status says more. That exit is seen only once
     * the JVM's process reaper has run, which a loaded machine may put off well past the moment the output closed,
     * so it is given as long as a server being stopped is; one that closed its output and runs on answers nothing.
     */
    private void outputClosed(Process source) {
        try {
            if (source.waitFor(STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                markGone("exited with status " + source.exitValue());
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        markGone("closed its output");
    }

    /**
     * The server's diagnostics may echo anything it was given, so they are kept out of normal logs; the last few
     * lines, with the values of its extra environment blanked, explain a server that would not start.
     */
    private void drainErrors(Process source) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(source.getErrorStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                LOG.log(Level.FINEST, "server {0} (stderr): {1}", new Object[] {server, line});
                keep(line);
            }
        } catch (IOException e) {
            // the process ended; its exit is reported through onExit
        }
    }

    private void keep(String line) {
        String shown = line.strip();
        for (String value : environment.values()) {
            if (!value.isEmpty()) {
                shown = shown.replace(value, "[hidden]");
            }
        }
        if (shown.isEmpty()) {
            return;
        }
        if (shown.length() > MAX_ERROR_LINE_CHARS) {
            shown = shown.substring(0, MAX_ERROR_LINE_CHARS) + "...";
        }
        synchronized (lastErrorLines) {
            if (lastErrorLines.size() == KEPT_ERROR_LINES) {
                lastErrorLines.removeFirst();
            }
            lastErrorLines.addLast(shown);
        }
    }

    /**
     * The last lines the server wrote to stderr, oldest first; after it ended, once they are all read (the
     * reader is given a moment, since the exit may be seen before the last lines are).
     */
    List<String> lastErrorLines() {
        Thread reader = errorReader;
        if (reader != null && isGone()) {
            try {
                reader.join(STOP_WAIT_MILLIS / 4);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (lastErrorLines) {
            return List.copyOf(lastErrorLines);
        }
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        return started.asMono().flatMap(target -> Mono.fromRunnable(() -> {
            if (goneReason != null) {
                throw new UncheckedIOException(new IOException("server process is not running"));
            }
            try {
                byte[] line = (json.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
                synchronized (writeLock) {
                    OutputStream input = target.getOutputStream();
                    input.write(line);
                    input.flush();
                }
            } catch (IOException e) {
                markGone("stopped reading its input");
                throw new UncheckedIOException(e);
            }
        }));
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.<Void>fromRunnable(() -> {
            markGone("was closed");
            Process target = process;
            if (target != null) {
                stop(target);
            }
        }).subscribeOn(Schedulers.boundedElastic());
    }

    /** Closes the server's input (a well-behaved server exits), then terminates it and whatever it started. */
    private static void stop(Process target) {
        try {
            target.getOutputStream().close();
            if (!target.waitFor(STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                target.descendants().forEach(ProcessHandle::destroy);
                target.destroy();
                if (!target.waitFor(STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    target.descendants().forEach(ProcessHandle::destroyForcibly);
                    target.destroyForcibly();
                }
            }
        } catch (IOException e) {
            target.destroyForcibly();
        } catch (InterruptedException e) {
            target.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void markGone(String reason) {
        synchronized (gone) {
            if (goneReason == null) {
                goneReason = reason;
                gone.tryEmitValue(reason);
            }
        }
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return json.convertValue(data, typeRef);
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
