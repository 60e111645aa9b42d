package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Json;
import io.countersign.tools.mcp.McpPeers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The TypeScript SDK's client as a host of the gateway ({@code hosts/task-host.mjs}): its lines read as they come,
 * each step's answer taken by its key. It starts once the gateway offers the tool it is given.
 */
final class TaskHost implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final List<JsonNode> lines = new CopyOnWriteArrayList<>();
    private volatile boolean ended;

    private TaskHost(ProcessBuilder builder, String tool, Path log) throws IOException {
        this.log = log;
        builder.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).environment().put("HOST_TOOLS", tool);
        process = builder.start();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(Json.mapper().readTree(line));
                }
            } catch (IOException e) {
                // the host ended
            } finally {
                ended = true;
            }
        }, "task-host");
        reader.setDaemon(true);
        reader.start();
    }

    /** A host of the gateway's Streamable HTTP listener, with its bearer token. */
    static TaskHost over(HttpGatewayProcess gateway, String tool, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(McpPeers.node(), McpPeers.hostScript("task-host.mjs"),
                gateway.url().toString());
        builder.environment().put("HOST_TOKEN", gateway.authorization().substring("Bearer ".length()));
        return new TaskHost(builder, tool, log);
    }

    /** A host that starts the gateway with {@code command} and speaks to it over stdio. */
    static TaskHost overStdio(List<String> command, String tool, Path log) throws IOException {
        List<String> arguments = new ArrayList<>(List.of(McpPeers.node(), McpPeers.hostScript("task-host.mjs")));
        arguments.addAll(command);
        return new TaskHost(new ProcessBuilder(arguments), tool, log);
    }

    void send(String step) throws IOException {
        OutputStream input = process.getOutputStream();
        input.write((step + "\n").getBytes(StandardCharsets.UTF_8));
        input.flush();
    }

    /** The first line not taken yet that has the key, taken now, within a minute. */
    JsonNode next(String key) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            for (JsonNode line : lines) {
                if (line.has(key) && lines.remove(line)) {
                    return line;
                }
            }
            if (ended && lines.stream().noneMatch(line -> line.has(key))) {
                throw new AssertionError("the host ended without " + key + ": " + lines + " "
                        + Files.readString(log));
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        throw new AssertionError("no " + key + " from the host within a minute: " + lines + " "
                + Files.readString(log));
    }

    /** The lines with the key not taken yet, taken now. */
    List<JsonNode> taken(String key) {
        List<JsonNode> found = lines.stream().filter(line -> line.has(key)).toList();
        lines.removeAll(found);
        return found;
    }

    @Override
    public void close() throws Exception {
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
