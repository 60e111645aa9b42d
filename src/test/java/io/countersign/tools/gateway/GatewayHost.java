package io.countersign.tools.gateway;

import static org.awaitility.Awaitility.await;

import io.countersign.engine.Actor;
import io.countersign.engine.invocation.ToolInvocationRule;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.store.Store;
import io.countersign.testing.FastJava;
import io.countersign.tools.mcp.McpPeers;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A real MCP host in front of a real gateway: the official SDK's client, starting {@code countersign gateway} in a
 * child JVM as its stdio server command (or on any transport), with the records of the reference filesystem and
 * everything servers in the store. The gateway's rules include {@link NoSecretFilesRule}.
 */
public final class GatewayHost implements AutoCloseable {
    /** The {@code clientInfo} the host introduces itself with. */
    public static final McpSchema.Implementation CLIENT = new McpSchema.Implementation("gateway-test-host", "1.0");

    private final List<List<McpSchema.Tool>> listChanges = new CopyOnWriteArrayList<>();
    private final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    private final McpSyncClient client;
    private boolean closed;

    private GatewayHost(McpClientTransport transport, List<String> tools) {
        client = start(transport, CLIENT, listChanges, progress, tools);
    }

    /**
     * Starts the gateway for a profile over the store file and completes the host's handshake; returns once the
     * gateway offers every one of {@code tools}.
     *
     * @param folder where the rules plug-in is written
     */
    public static GatewayHost connect(Path folder, Path db, String profile, List<String> tools) throws Exception {
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(javaCommand())
                .args(gatewayArguments(folder, db, profile)).build(), McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> System.err.println("gateway: " + line));
        return new GatewayHost(transport, tools);
    }

    /**
     * A host on the transport, initialized once the gateway offers every one of {@code tools} (each fronted
     * server's tools arrive once it has connected); what it hears of list_changed and progress from then on goes to
     * the two lists.
     */
    static McpSyncClient start(McpClientTransport transport, McpSchema.Implementation info,
                               List<List<McpSchema.Tool>> listChanges,
                               List<McpSchema.ProgressNotification> progress, List<String> tools) {
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(info)
                .requestTimeout(Duration.ofMinutes(2))
                .initializationTimeout(Duration.ofMinutes(1))
                .toolsChangeConsumer(listChanges::add)
                .progressConsumer(progress::add)
                .build();
        client.initialize();
        await().atMost(60, TimeUnit.SECONDS).ignoreExceptions().pollDelay(Duration.ofMillis(500))
                .until(() -> toolNames(client).containsAll(tools));
        listChanges.clear();
        return client;
    }

    /**
     * The server records {@code docs} (a filesystem server whose tools run without approval), {@code disk} (the
     * same server, approval-bound) and {@code everything}, all over {@code workspace}.
     */
    public static void addServers(Store store, Actor admin, Path workspace) {
        String filesystem = McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js");
        store.servers().add(McpServerRecord.stdio("docs", McpPeers.node(),
                List.of(filesystem, workspace.toString())), admin);
        store.servers().add(McpServerRecord.stdio("disk", McpPeers.node(),
                List.of(filesystem, workspace.toString())), admin);
        store.servers().add(McpServerRecord.stdio("everything", McpPeers.node(),
                List.of(McpPeers.script(McpPeers.EVERYTHING, "dist/index.js"), "stdio")), admin);
        store.settings().setServerApprovalBound("docs", false, admin);
        store.settings().setServerApprovalBound("disk", true, admin);
        store.settings().setServerApprovalBound("everything", false, admin);
    }

    public McpSyncClient client() {
        return client;
    }

    /** The tool lists the host heard of with {@code notifications/tools/list_changed} since it connected. */
    public List<List<McpSchema.Tool>> listChanges() {
        return listChanges;
    }

    /** The progress notifications the host received while its calls waited. */
    public List<McpSchema.ProgressNotification> progress() {
        return progress;
    }

    public static List<String> toolNames(McpSyncClient client) {
        return client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
    }

    /** A call of the approval-bound {@code disk.write_file}. */
    public static McpSchema.CallToolRequest writeRequest(Path file, String content, String token) {
        return McpSchema.CallToolRequest.builder("disk.write_file")
                .arguments(Map.of("path", file.toString(), "content", content))
                .progressToken(token).build();
    }

    /** The text of a tool result's first content. */
    public static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    /** Disconnects the host, as one that quits does: the gateway's stdin closes. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            client.closeGracefully();
        }
    }

    /** The Java executable the tests run on. */
    public static String javaCommand() {
        return FastJava.java();
    }

    /**
     * The arguments after {@link #javaCommand()} of {@code countersign --store DB gateway --profile PROFILE
     * --progress-every 1} and {@code extra}: the test class path, with a services file (in {@code folder}) that adds
     * {@link NoSecretFilesRule} to the gateway's rules.
     */
    public static List<String> gatewayArguments(Path folder, Path db, String profile, String... extra)
            throws Exception {
        Path plugin = Files.createDirectories(folder.resolve("rules-plugin/META-INF/services"));
        Files.writeString(plugin.resolve(ToolInvocationRule.class.getName()), NoSecretFilesRule.class.getName()
                + "\n");
        // after the shared class path, so that the children's class archive applies
        String classpath = FastJava.classpath() + File.pathSeparator + folder.resolve("rules-plugin");
        List<String> arguments = new ArrayList<>(FastJava.options());
        arguments.addAll(List.of("-cp", classpath, "io.countersign.app.Main", "--store", db.toString(), "gateway",
                "--profile", profile, "--progress-every", "1"));
        arguments.addAll(List.of(extra));
        return arguments;
    }
}
