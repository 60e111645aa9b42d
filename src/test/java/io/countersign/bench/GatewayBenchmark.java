package io.countersign.bench;

import io.countersign.engine.Actor;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.mcp.McpPeers;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The gateway's added latency for a call that needs no approval: the SDK's client calls server-everything's
 * {@code echo} directly over stdio, and through {@code countersign gateway} (a process of its own on a fresh SQLite
 * store, fronting the same server), in turns, the order swapped every turn. Prints medians and 90th percentiles of
 * each and of the per-turn difference. Arguments: the timed turns (1,000), the untimed ones (300), and the JVM
 * options for the gateway's process after {@code --} (by default those the launchers a host starts give every
 * command, the client compiler only among them: packaging/jpackage/image.options, packaging/bin/countersign). Also
 * prints the CPU the gateway's process spent per timed call, which load on the machine changes far less than the
 * wall times.
 */
public final class GatewayBenchmark {
    private static final String ECHO = "echo";
    /** The JVM options every launcher of Countersign starts Java with. */
    private static final List<String> LAUNCHER_OPTIONS = List.of("-Xmx512m", "-XX:TieredStopAtLevel=1");
    /** Linux's USER_HZ, the unit of /proc's CPU times on every common kernel. */
    private static final int CLOCK_TICKS_PER_SECOND = 100;
    private static final Pattern JVM_THREAD = Pattern.compile(
            "C1 Compiler|C2 Compiler|GC Thread|G1 |VM Thread|VM Periodic|Sweeper|Service Thread|JFR |Monitor Deflat");

    private GatewayBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int timed = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        int untimed = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        int dashes = Arrays.asList(args).indexOf("--");
        List<String> jvm = dashes >= 0 ? Arrays.asList(args).subList(dashes + 1, args.length)
                : LAUNCHER_OPTIONS;
        System.out.printf("Countersign gateway benchmark: %,d timed turns after %,d untimed, gateway JVM options %s,"
                + " Java %s%n", timed, untimed, jvm, Runtime.version());
        Path folder = Files.createTempDirectory("countersign-gateway-bench");
        Path db = folder.resolve("countersign.db");
        List<String> everything = List.of(McpPeers.script(McpPeers.EVERYTHING, "dist/index.js"), "stdio");
        prepare(db, everything);
        McpSyncClient direct = client(McpPeers.node(), everything);
        List<String> gateway = new ArrayList<>(jvm);
        gateway.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.countersign.app.Main",
                "--store", db.toString(), "gateway", "--profile", "bench"));
        McpSyncClient through = client(Path.of(System.getProperty("java.home"), "bin", "java").toString(), gateway);
        try {
            awaitEcho(through);
            // the gateway is the one Java child; the other is the server called directly
            ProcessHandle gatewayProcess = ProcessHandle.current().children()
                    .filter(child -> child.info().command().orElse("").endsWith("java")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("the gateway's process is not a child"));
            Duration cpuBefore = Duration.ZERO;
            long appTicksBefore = 0;
            double[] directMs = new double[timed];
            double[] gatewayMs = new double[timed];
            for (int turn = -untimed; turn < timed; turn++) {
                double a;
                double b;
                if ((turn & 1) == 0) {
                    a = call(direct, turn);
                    b = call(through, turn);
                } else {
                    b = call(through, turn);
                    a = call(direct, turn);
                }
                if (turn == 0) {
                    cpuBefore = cpu(gatewayProcess);
                    appTicksBefore = applicationTicks(gatewayProcess);
                }
                if (turn >= 0) {
                    directMs[turn] = a;
                    gatewayMs[turn] = b;
                }
                if ((turn + untimed) % 100 == 99) {
                    System.out.printf("turn %d: direct %.3f ms, through the gateway %.3f ms%n", turn, a, b);
                }
            }
            double[] added = new double[timed];
            for (int i = 0; i < timed; i++) {
                added[i] = gatewayMs[i] - directMs[i];
            }
            report("direct", directMs);
            report("through the gateway", gatewayMs);
            report("added, turn by turn", added);
            System.out.printf("added, median against median: %.3f ms%n",
                    percentile(gatewayMs, 50) - percentile(directMs, 50));
            System.out.printf("gateway process CPU per call: %.3f ms%n",
                    cpu(gatewayProcess).minus(cpuBefore).toNanos() / 1e6 / timed);
            System.out.printf("  of it in the gateway's own threads (not the JIT compiler's or the GC's): %.3f ms%n",
                    (applicationTicks(gatewayProcess) - appTicksBefore) * 1000.0 / CLOCK_TICKS_PER_SECOND / timed);
        } finally {
            through.closeGracefully();
            direct.closeGracefully();
        }
    }

    /** A store with server-everything's record (no approval) and a profile that fronts it. */
    private static void prepare(Path db, List<String> everything) {
        try (Store store = Store.open(new StoreLocation.SqliteFile(db))) {
            Actor admin = store.users().signedIn(System.getProperty("user.name", "operator"));
            store.servers().add(McpServerRecord.stdio("everything", McpPeers.node(), everything), admin);
            store.settings().setServerApprovalBound("everything", false, admin);
        }
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(db))) {
            runtime.gateway().profiles().add(runtime.localUser(), "bench", List.of("everything"), List.of(),
                    "local", false, null, null);
        }
    }

    private static McpSyncClient client(String command, List<String> arguments) {
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(command).args(arguments)
                .build(), McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> { });
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(new McpSchema.Implementation("gateway-bench", "1.0"))
                .requestTimeout(Duration.ofSeconds(30)).initializationTimeout(Duration.ofMinutes(1)).build();
        client.initialize();
        return client;
    }

    /** The gateway offers a server's tools once it has connected to it. */
    private static void awaitEcho(McpSyncClient gateway) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (gateway.listTools().tools().stream().noneMatch(tool -> tool.name().equals(ECHO))) {
            if (System.nanoTime() > until) {
                throw new IllegalStateException("the gateway offered no echo tool within 60 s");
            }
            Thread.sleep(200);
        }
    }

    private static double call(McpSyncClient client, int turn) {
        String message = "turn " + turn;
        long start = System.nanoTime();
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(ECHO,
                Map.of("message", message)));
        double millis = (System.nanoTime() - start) / 1e6;
        if (Boolean.TRUE.equals(result.isError())
                || !((McpSchema.TextContent) result.content().get(0)).text().contains(message)) {
            throw new IllegalStateException("echo answered " + result.content());
        }
        return millis;
    }

    /**
     * The CPU the process's own threads spent, in clock ticks, read from Linux's {@code /proc}: the JVM's compiler
     * threads still compile during the first thousands of calls, and that CPU would hide the calls' own.
     */
    private static long applicationTicks(ProcessHandle process) throws IOException {
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(process.pid()),
                "task"))) {
            for (Path task : tasks) {
                String stat = Files.readString(task.resolve("stat"));
                // the thread's name is in parentheses and may hold spaces; the numbers follow it
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (JVM_THREAD.matcher(name).lookingAt()) {
                    continue;
                }
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
            }
        }
        return ticks;
    }

    private static Duration cpu(ProcessHandle process) {
        return process.info().totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("the system does not tell a process's CPU time"));
    }

    private static void report(String what, double[] millis) {
        System.out.printf("%-22s median %.3f ms, p90 %.3f ms, min %.3f ms%n", what, percentile(millis, 50),
                percentile(millis, 90), Arrays.stream(millis).min().orElse(0));
    }

    private static double percentile(double[] values, int percent) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
