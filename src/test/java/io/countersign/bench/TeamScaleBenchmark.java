package io.countersign.bench;

import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.StartedRun;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.mcp.McpPeers;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A team on one PostgreSQL ({@code fsync} and synchronous commits on): N {@code countersign worker} processes, M
 * deciding clients and K consoles following the change feed, with a scripted agent whose one call is approval-bound
 * and goes, once approved, to a real MCP server over stdio (the ledger server, which writes down every execution
 * and when it began). For each number of workers it measures two stretches: saturated (new runs always wait for a
 * worker, every card is decided as soon as a client sees it) and paced (runs queued at half the saturated rate),
 * then lets the queue drain and checks every execution: each decided call ran exactly once, no call ran without a
 * decision, and no pause got two decisions; any breach ends the benchmark with exit status 1. Then it times the
 * inbox at each number of waiting cards, and pgbench on the same server.
 *
 * <p>Options (all optional): {@code --workers 1,2,4,8} worker processes per stretch, {@code --threads 1} threads per
 * worker, {@code --deciders 4}, {@code --listeners 4}, {@code --waiting 10000,100000} inbox sizes, {@code --seconds
 * 10} per measured stretch, {@code --pgbench pgbench} the executable, {@code --statements 0} how many of the
 * statements that took the server's most time to print for each saturated stretch (0: the server keeps no
 * statement statistics, which cost it time).
 */
public final class TeamScaleBenchmark {
    private static final String SERVER = "ctr";
    private static final String AGENT = "recorder";
    private static final int WARM_UP_SECONDS = 5;
    private static final int PGBENCH_CLIENTS = 8;
    private static final int TIMED = 5;
    private static final Duration DRAIN = Duration.ofMinutes(2);

    private TeamScaleBenchmark() {
    }

    /** The benchmark's parameters. */
    record Options(List<Integer> workers, int threads, int deciders, int listeners, List<Integer> waiting,
                   int seconds, String pgbench, int statements) {

        private static final List<String> NAMES = List.of("--workers", "--threads", "--deciders", "--listeners",
                "--waiting", "--seconds", "--pgbench", "--statements");

        static Options parse(String... args) {
            Map<String, String> given = new HashMap<>();
            for (int i = 0; i < args.length; i += 2) {
                if (!NAMES.contains(args[i])) {
                    throw new IllegalArgumentException("unknown option " + args[i] + "; the options are "
                            + String.join(", ", NAMES));
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + args[i] + " needs a value");
                }
                given.put(args[i], args[i + 1]);
            }
            return new Options(numbers(given.getOrDefault("--workers", "1,2,4,8")),
                    Integer.parseInt(given.getOrDefault("--threads", "1")),
                    Integer.parseInt(given.getOrDefault("--deciders", "4")),
                    Integer.parseInt(given.getOrDefault("--listeners", "4")),
                    numbers(given.getOrDefault("--waiting", "10000,100000")),
                    Integer.parseInt(given.getOrDefault("--seconds", "10")),
                    given.getOrDefault("--pgbench", "pgbench"),
                    Integer.parseInt(given.getOrDefault("--statements", "0")));
        }

        private static List<Integer> numbers(String list) {
            return Arrays.stream(list.split(",")).map(String::strip).map(Integer::parseInt).toList();
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        // The pools', Flyway's and the MCP client's notes of every runtime opened would bury the figures.
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        Path folder = Files.createTempDirectory("countersign-team");
        List<String> breaches = new ArrayList<>();
        try (TeamCluster cluster = new TeamCluster(options.statements() > 0)) {
            System.out.printf("Countersign team-scale benchmark, Java %s, %d cores, load average %s%n",
                    Runtime.version(), Runtime.getRuntime().availableProcessors(), loadAverage());
            System.out.printf("PostgreSQL (embedded): %s%n", cluster.durability());
            System.out.printf("%s%nthe workers' logs and the ledgers stay in %s%n%n", options, folder);
            Setup setup = Setup.in(folder);
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < options.workers().size(); i++) {
                // A count given again (to see how far its runs spread) gets a store and a ledger of its own.
                int workers = options.workers().get(i);
                String name = workers + (options.workers().subList(0, i).contains(workers) ? "_" + (i + 1) : "");
                rows.add(team(cluster, setup, options, workers, name, breaches));
            }
            printTeam(rows, options);
            List<InboxRow> inboxes = new ArrayList<>();
            for (int size : options.waiting()) {
                inboxes.add(inbox(cluster, setup, size));
            }
            printInbox(inboxes);
            TeamCluster.Pgbench pgbench = cluster.pgbench(options.pgbench(), PGBENCH_CLIENTS, options.seconds(),
                    folder);
            printPgbench(pgbench);
            printSaturation(rows, pgbench);
            printCurve(rows);
            System.out.printf("%nload average at the end %s%n", loadAverage());
        }
        if (!breaches.isEmpty()) {
            System.out.println();
            breaches.forEach(breach -> System.out.println("BREACH: " + breach));
            System.exit(1);
        }
    }

    /** The ledger server, the agent's script and the ledgers' folder, made once. */
    private record Setup(Path folder, Path ledgerServer, Path control, Path script) {
        static Setup in(Path folder) throws Exception {
            Path server = folder.resolve("ledger-server.js");
            try (InputStream resource = TeamScaleBenchmark.class.getResourceAsStream("/mcp/ledger-server.js")) {
                Files.copy(resource, server);
            }
            Path script = Files.writeString(folder.resolve("recorder.json"), "{\"turns\": [{\"content\":"
                    + " \"Recording the task.\", \"toolCalls\": [{\"name\": \"" + SERVER + ".append\", \"arguments\":"
                    + " {\"line\": \"as the model wrote it\"}}]}, {\"content\": \"Recorded.\"}]}");
            return new Setup(folder, server, Files.createDirectories(folder.resolve("control")), script);
        }

        /** A store whose agent's one call goes, approval-bound, to a ledger server writing to {@code ledger}. */
        void store(StoreLocation location, Path ledger) {
            try (CountersignRuntime runtime = CountersignRuntime.open(location, CountersignRuntime.Work.ADMINISTER,
                    Duration.ZERO)) {
                Actor admin = runtime.localUser();
                runtime.store().servers().add(McpServerRecord.stdio(SERVER, McpPeers.node(), List.of(
                        ledgerServer.toString(), ledger.toString(), control.toString(), "timed"))
                        .withApprovalBound(true).withConnectTimeout(Duration.ofSeconds(30)), admin);
                ModelConfiguration model = new ModelConfiguration("recorder-script", "scripted", "recorder",
                        script.toString(), TrustZone.LOCAL, null, null, null, null);
                runtime.store().configurations().saveModel(model);
                runtime.store().configurations().saveAgent(StoredAgentConfiguration.of(
                        AgentConfiguration.of(AGENT, model, List.of(SERVER)), "[]"));
            }
        }
    }

    /** One measured stretch, before the ledger is read. */
    private record Window(long from, long to, long waitingAtStart, long waitingAtEnd, TeamCluster.Counters counters,
                          TeamListeners.Activity consoles, TeamCpu.Usage cpu) {
        double seconds() {
            return (to - from) / 1e6;
        }
    }

    /** What one number of workers did. */
    private record Row(int workers, Stretch saturated, Stretch paced, double pacedRate, long lostRaces,
                       int decisions, TeamWorkers.Report report) {
    }

    /** The figures of one stretch. */
    private record Stretch(double pausesPerSecond, double decisionsPerSecond, double callsPerSecond,
                           List<Double> handOffMillis, TeamCluster.Counters counters, long decisions,
                           TeamListeners.Activity consoles, TeamCpu.Usage cpu, double seconds) {

        static Stretch of(Window window, Map<String, Long> committed, TeamLedger ledger) {
            List<Double> handOff = new ArrayList<>();
            long decisions = 0;
            for (Map.Entry<String, Long> decided : committed.entrySet()) {
                if (decided.getValue() >= window.from() && decided.getValue() < window.to()) {
                    decisions++;
                    Long started = ledger.firstStart().get(decided.getKey());
                    if (started != null) {
                        handOff.add((started - decided.getValue()) / 1000.0);
                    }
                }
            }
            handOff.sort(null);
            double seconds = window.seconds();
            long pauses = window.waitingAtEnd() - window.waitingAtStart() + decisions;
            return new Stretch(pauses / seconds, decisions / seconds,
                    ledger.startedBetween(window.from(), window.to()) / seconds, handOff, window.counters(),
                    decisions, window.consoles(), window.cpu(), seconds);
        }

        String handOff() {
            return handOffMillis.isEmpty() ? "–" : String.format("%.1f / %.1f", percentile(handOffMillis, 0.5),
                    percentile(handOffMillis, 0.99));
        }

        String perDecision(long total, double scale) {
            return decisions == 0 ? "–" : String.format("%.1f", total / scale / decisions);
        }

        String consoles(int listeners) {
            if (listeners == 0) {
                return "–";
            }
            List<Long> reloads = consoles.reloadNanos().stream().sorted().toList();
            return String.format("%.0f/s, %s ms", consoles.notifications() / seconds / listeners,
                    reloads.isEmpty() ? "–" : String.format("%.1f", reloads.get(reloads.size() / 2) / 1e6));
        }
    }

    private static Row team(TeamCluster cluster, Setup setup, Options options, int workerCount, String name,
                            List<String> breaches) throws Exception {
        String schema = "team_" + name;
        StoreLocation.Postgres location = cluster.freshStore(schema);
        Path ledgerFile = setup.folder().resolve("ledger-" + name + ".txt");
        setup.store(location, ledgerFile);
        System.out.printf("%d worker%s of %d thread%s: starting%n", workerCount, workerCount == 1 ? "" : "s",
                options.threads(), options.threads() == 1 ? "" : "s");
        // The clients first, so that every card the workers' first runs show is decided as it appears.
        try (Connection bare = cluster.bare();
             TeamDeciders deciders = TeamDeciders.start(location, options.deciders());
             TeamListeners listeners = TeamListeners.start(location, options.listeners());
             TeamWorkers workers = TeamWorkers.start(location.jdbcUrl(), workerCount, options.threads(),
                     setup.folder())) {
            Window saturated;
            Window paced;
            double rate;
            try (TeamFeeder feeder = TeamFeeder.keepingBacklog(location, cluster.bare(), schema, AGENT,
                    2 * workerCount * options.threads())) {
                TimeUnit.SECONDS.sleep(WARM_UP_SECONDS);
                cluster.resetStatements(bare);
                saturated = measure(cluster, bare, schema, listeners, options.seconds());
                List<String> statements = cluster.topStatements(bare, options.statements());
                if (!statements.isEmpty()) {
                    System.out.println("  the server's time by statement, saturated:");
                    statements.forEach(line -> System.out.println("    " + line));
                }
                rate = Math.max(1, deciders.committedBetween(saturated.from(), saturated.to())
                        / saturated.seconds() / 2);
                feeder.pace(rate);
                awaitQueueBelow(bare, schema, workerCount * options.threads() + 1);
                TimeUnit.SECONDS.sleep(WARM_UP_SECONDS);
                paced = measure(cluster, bare, schema, listeners, options.seconds());
            }
            drain(bare, schema, breaches);
            deciders.close();
            TeamWorkers.Report report = workers.stop();
            int lostLeases = workers.lostLeaseReports();
            TeamLedger ledger = TeamLedger.read(ledgerFile);
            check(bare, schema, deciders, ledger, workerCount, breaches);
            return row(workerCount, saturated, paced, rate, deciders, ledger, report, lostLeases);
        }
    }

    private static Row row(int workerCount, Window saturated, Window paced, double rate, TeamDeciders deciders,
                           TeamLedger ledger, TeamWorkers.Report report, int lostLeases) {
        Map<String, Long> committed = deciders.committed();
        Row row = new Row(workerCount, Stretch.of(saturated, committed, ledger), Stretch.of(paced, committed, ledger),
                rate, deciders.lostRaces(), committed.size(), report);
        System.out.printf("  saturated: %.1f pauses/s, %.1f decisions/s, %.1f calls/s, commit to call %s ms;"
                        + " paced at %.1f/s: commit to call %s ms; %,d decisions, %,d lost races; workers: %s;"
                        + " %d reports of a lost lease; the server's checkpoints begun and autovacuum runs,"
                        + " saturated %d and %d, paced %d and %d%n",
                row.saturated().pausesPerSecond(), row.saturated().decisionsPerSecond(),
                row.saturated().callsPerSecond(), row.saturated().handOff(), rate, row.paced().handOff(),
                row.decisions(), row.lostRaces(), report, lostLeases, saturated.counters().checkpoints(),
                saturated.counters().autovacuums(), paced.counters().checkpoints(), paced.counters().autovacuums());
        return row;
    }

    private static Window measure(TeamCluster cluster, Connection bare, String schema, TeamListeners listeners,
                                  int seconds) throws Exception {
        listeners.take();
        long waitingAtStart = TeamCluster.runsWith(bare, schema, RunStatus.WAITING_FOR_APPROVAL);
        TeamCluster.Counters before = cluster.counters(bare);
        TeamCpu.Sample cpuBefore = TeamCpu.sample();
        long from = TeamDeciders.micros(Instant.now());
        TimeUnit.SECONDS.sleep(seconds);
        long to = TeamDeciders.micros(Instant.now());
        TeamCpu.Usage cpu = TeamCpu.sample().since(cpuBefore);
        long waitingAtEnd = TeamCluster.runsWith(bare, schema, RunStatus.WAITING_FOR_APPROVAL);
        TeamCluster.Counters after = cluster.counters(bare);
        return new Window(from, to, waitingAtStart, waitingAtEnd, after.since(before), listeners.take(), cpu);
    }

    /** Waits until fewer runs than {@code limit} are queued (the saturated stretch's backlog worked off). */
    private static void awaitQueueBelow(Connection bare, String schema, int limit) throws Exception {
        long deadline = System.nanoTime() + DRAIN.toNanos();
        while (TeamCluster.runsWith(bare, schema, RunStatus.QUEUED) >= limit && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    /** Waits until nothing waits, is queued or runs: every decided call carried out. */
    private static void drain(Connection bare, String schema, List<String> breaches) throws Exception {
        long deadline = System.nanoTime() + DRAIN.toNanos();
        Supplier<Long> open = () -> {
            try {
                return TeamCluster.runsWith(bare, schema, RunStatus.WAITING_FOR_APPROVAL)
                        + TeamCluster.runsWith(bare, schema, RunStatus.QUEUED)
                        + TeamCluster.runsWith(bare, schema, RunStatus.RUNNING);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        };
        while (open.get() > 0) {
            if (System.nanoTime() > deadline) {
                breaches.add(schema + ": " + open.get() + " runs still open " + DRAIN.toSeconds()
                        + " s after the load stopped");
                return;
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    /**
     * The benchmark's own check of its executions: each decided call ran once, none ran undecided, no run (each
     * pauses once) was decided twice, by the clients' answers and by the decisions table.
     */
    private static void check(Connection bare, String schema, TeamDeciders deciders, TeamLedger ledger,
                              int workers, List<String> breaches) throws SQLException {
        String where = workers + " workers: ";
        int before = breaches.size();
        Map<String, Long> committed = deciders.committed();
        ledger.repeated().forEach((run, count) -> breaches.add(where + "the call of run " + run + " ran " + count
                + " times"));
        deciders.decidedTwice().forEach(run -> breaches.add(where + "two clients were told they decided run " + run));
        Set<String> undecided = ledger.executions().keySet().stream().filter(run -> !committed.containsKey(run))
                .collect(Collectors.toSet());
        undecided.forEach(run -> breaches.add(where + "a call ran for " + run + " with no decision for it"));
        List<String> notRun = committed.keySet().stream().filter(run -> !ledger.executions().containsKey(run))
                .sorted().toList();
        if (!notRun.isEmpty()) {
            breaches.add(where + notRun.size() + " decided calls never ran, among them " + notRun.get(0));
        }
        deciders.refusals().stream().limit(5).forEach(refusal -> breaches.add(where + "a client was answered "
                + refusal));
        try (Statement statement = bare.createStatement();
             ResultSet row = statement.executeQuery("SELECT count(*), count(DISTINCT run_id) FROM " + schema
                     + ".decisions")) {
            row.next();
            if (row.getLong(1) != row.getLong(2)) {
                breaches.add(where + (row.getLong(1) - row.getLong(2)) + " runs hold a second decision");
            }
            if (row.getLong(1) != committed.size()) {
                breaches.add(where + "the store holds " + row.getLong(1) + " decisions, the clients were told of "
                        + committed.size());
            }
        }
        if (breaches.size() == before) {
            System.out.printf("  check: %,d decisions, one per pause; %,d calls, each ran once%n", committed.size(),
                    ledger.executions().size());
        } else {
            System.out.printf("  check: %d breaches, listed at the end%n", breaches.size() - before);
        }
    }

    /** The inbox at one number of waiting cards. */
    private record InboxRow(int waiting, double seedSeconds, long[] list, long[] firstCard, long[] otherSections) {
    }

    private static InboxRow inbox(TeamCluster cluster, Setup setup, int size) throws Exception {
        String schema = "inbox_" + size;
        StoreLocation.Postgres location = cluster.freshStore(schema);
        setup.store(location, setup.folder().resolve("inbox-ledger.txt"));
        String runId;
        try (CountersignRuntime runtime = CountersignRuntime.open(location, CountersignRuntime.Work.RUN_AGENTS,
                Duration.ofSeconds(60))) {
            StartedRun started = runtime.runs().start(runtime.localUser(), AGENT, "The inbox's first card", false);
            if (started.status() != RunStatus.WAITING_FOR_APPROVAL) {
                throw new IllegalStateException("the inbox's first run did not pause: " + started.status());
            }
            runId = started.runId();
        }
        long seeding = System.nanoTime();
        cluster.copyWaitingRun(schema, runId, size);
        double seedSeconds = (System.nanoTime() - seeding) / 1e9;
        try (CountersignRuntime console = CountersignRuntime.open(location, CountersignRuntime.Work.ADMINISTER,
                Duration.ZERO)) {
            Actor person = console.localUser();
            List<WaitingRun> shown = console.runs().inbox(person);
            if (shown.size() != size || !shown.get(0).runId().equals(runId)) {
                throw new IllegalStateException("the inbox lists " + shown.size() + " runs, not " + size);
            }
            long[] list = timed(() -> console.runs().inbox(person));
            long[] card = timed(() -> console.runs().card(person, runId).orElseThrow());
            long[] others = timed(() -> {
                console.runs().toSettle(person);
                console.runs().waitingForServers(person);
            });
            return new InboxRow(size, seedSeconds, list, card, others);
        }
    }

    /** {@value #TIMED} timed calls after one untimed, in nanoseconds, sorted. */
    private static long[] timed(Runnable read) {
        read.run();
        long[] nanos = new long[TIMED];
        for (int i = 0; i < TIMED; i++) {
            long start = System.nanoTime();
            read.run();
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return nanos;
    }

    private static void printTeam(List<Row> rows, Options options) {
        System.out.printf("%nThroughput: %d s saturated (new runs always waiting for a worker), then %d s paced at half"
                + " the saturated decisions/s; deciding clients: %d, consoles: %d, threads per worker: %d%n",
                options.seconds(), options.seconds(), options.deciders(), options.listeners(), options.threads());
        System.out.println("| workers | pauses/s | decisions/s | calls/s | commit to call p50 / p99, saturated (ms)"
                + " | paced at /s | commit to call p50 / p99, paced (ms) | transactions (writing) per decided run"
                + " | WAL KiB per decided run | WAL syncs per decided run | console notifications/s, inbox read |"
                + " lost races |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Row row : rows) {
            Stretch saturated = row.saturated();
            TeamCluster.Counters counters = saturated.counters();
            System.out.printf("| %d | %.1f | %.1f | %.1f | %s | %.1f | %s | %s (%s) | %s | %s | %s | %,d |%n",
                    row.workers(), saturated.pausesPerSecond(), saturated.decisionsPerSecond(),
                    saturated.callsPerSecond(), saturated.handOff(), row.pacedRate(), row.paced().handOff(),
                    saturated.perDecision(counters.transactions(), 1), saturated.perDecision(counters.writes(), 1),
                    saturated.perDecision(counters.walBytes(), 1024), saturated.perDecision(counters.walSyncs(), 1),
                    saturated.consoles(options.listeners()), row.lostRaces());
        }
    }

    private static void printInbox(List<InboxRow> rows) {
        System.out.printf("%nThe inbox as the console and `inbox` read it (every waiting run, the first card, the"
                + " other sections), medians of %d after one untimed, ms%n", TIMED);
        System.out.println("| waiting | inbox list | first card | to settle and waiting for servers | seeded in |");
        System.out.println("| --- | --- | --- | --- | --- |");
        for (InboxRow row : rows) {
            System.out.printf("| %,d | %.1f (max %.1f) | %.2f | %.2f | %.1f s |%n", row.waiting(),
                    row.list()[TIMED / 2] / 1e6, row.list()[TIMED - 1] / 1e6, row.firstCard()[TIMED / 2] / 1e6,
                    row.otherSections()[TIMED / 2] / 1e6, row.seedSeconds());
        }
    }

    private static void printPgbench(TeamCluster.Pgbench pgbench) {
        System.out.printf("%npgbench on the same server: %s%n", pgbench.tps().map(tps -> String.format(
                "%.0f transactions/s (%s); per transaction %.2f KiB of WAL, %.2f WAL syncs", tps, pgbench.note(),
                pgbench.counters().walBytes() / 1024.0 / pgbench.transactions(),
                pgbench.counters().walSyncs() / (double) pgbench.transactions())).orElse(pgbench.note()));
    }

    /**
     * What bounded each saturated stretch: the cores each part of the team used, the machine's, and the database's
     * transactions a second beside pgbench's rate on the same server.
     */
    private static void printSaturation(List<Row> rows, TeamCluster.Pgbench pgbench) {
        System.out.printf("%nWhere the CPU went, saturated (cores of %d, averaged over the stretch), and the database's"
                + " transactions%n", Runtime.getRuntime().availableProcessors());
        System.out.println("| workers | machine busy | PostgreSQL | worker JVMs | ledger servers | clients and consoles"
                + " (the benchmark's JVM) | transactions/s (writing) | of pgbench's rate (writing) |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Row row : rows) {
            Stretch saturated = row.saturated();
            TeamCpu.Usage cpu = saturated.cpu();
            double transactions = saturated.counters().transactions() / saturated.seconds();
            double writing = saturated.counters().writes() / saturated.seconds();
            System.out.printf("| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f (%.0f) | %s |%n", row.workers(),
                    cpu.machine(), cpu.of(TeamCpu.Part.POSTGRESQL), cpu.of(TeamCpu.Part.WORKERS),
                    cpu.of(TeamCpu.Part.LEDGER_SERVERS), cpu.of(TeamCpu.Part.CLIENTS), transactions, writing,
                    pgbench.tps().map(tps -> String.format("%.0f %% (%.0f %%)", 100 * transactions / tps,
                            100 * writing / tps)).orElse("–"));
        }
    }

    private static void printCurve(List<Row> rows) {
        System.out.printf("%n```mermaid%nxychart-beta%n    title \"Decisions and pauses per second against worker"
                + " processes\"%n    x-axis \"worker processes\" [%s]%n    y-axis \"per second\"%n    bar [%s]%n"
                + "    line [%s]%n```%n",
                rows.stream().map(row -> Integer.toString(row.workers())).collect(Collectors.joining(", ")),
                rows.stream().map(row -> String.format("%.1f", row.saturated().decisionsPerSecond()))
                        .collect(Collectors.joining(", ")),
                rows.stream().map(row -> String.format("%.1f", row.saturated().pausesPerSecond()))
                        .collect(Collectors.joining(", ")));
    }

    static double percentile(List<Double> sorted, double fraction) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(fraction * sorted.size()) - 1));
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
