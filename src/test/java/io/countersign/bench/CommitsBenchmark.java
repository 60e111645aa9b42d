package io.countersign.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.service.DefaultRunService;
import io.countersign.service.RunCard;
import io.countersign.service.StartedRun;
import io.countersign.store.Store;
import io.countersign.store.StoreCommits;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.NetworkntSchemaValidator;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * A pause and an approved resume through the run service, as a person meets them, against a bare single-row durable
 * commit into the same database, in turns: a scripted model asks for one approval-bound write (a page of text with
 * its diff preview); the run pauses; the card is read (untimed) and approved; the tool runs; the model answers and
 * the run completes. Prints the medians, the store's commits per pause and per decision, durable and deferred,
 * and the median CPU time of each on the calling thread; on PostgreSQL also the WAL syncs
 * ({@code pg_stat_wal.wal_sync}) of a stretch of pauses and their decisions run alone. Arguments: {@code sqlite|postgres}, the number of measured turns (after {@value #WARM_UP} untimed ones).
 */
public final class CommitsBenchmark {
    private static final Actor OPERATOR = Actor.of("bench", Role.OPERATOR);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AGENT = "bench";
    private static final int WARM_UP = 300;
    /** Pauses, then decisions, run alone for the WAL sync count. */
    private static final int ALONE = 200;
    private static final int BARE = 0;
    private static final int PAUSE = 1;
    private static final int DECISION = 2;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CommitsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String database = args.length > 0 ? args[0] : "sqlite";
        int turns = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        System.out.printf("Countersign commits benchmark: %s, %,d pauses and decisions after %d untimed, Java %s%n",
                database, turns, WARM_UP, Runtime.version());
        try (StoreBenchmark.Databases databases = StoreBenchmark.Databases.named(database)) {
            run(databases.fresh(), turns);
        }
    }

    private static void run(StoreBenchmark.Target target, int turns) throws SQLException {
        try (Store store = Store.open(target.location());
             Connection bare = target.bareConnection()) {
            // The service refuses actors the store does not know.
            store.users().add(OPERATOR.name(), Set.of(Role.OPERATOR), Actor.of("bench-setup"));
            DefaultRunService service = service(store);
            try (Statement ddl = bare.createStatement()) {
                ddl.execute("CREATE TABLE bench_commits (id BIGINT PRIMARY KEY, committed_at BIGINT NOT NULL)");
            }
            bare.setAutoCommit(true);
            boolean postgres = bare.getMetaData().getDatabaseProductName().equals("PostgreSQL");
            System.out.printf("the database's durability: %s%n", DecisionBenchmark.durability(bare));
            long[][] times = new long[3][turns];
            long[][] cpu = new long[3][turns];
            long[][] kernel = new long[3][turns];
            long[][] durable = new long[3][turns];
            long[][] deferred = new long[3][turns];
            try (PreparedStatement insert = bare.prepareStatement(
                    "INSERT INTO bench_commits (id, committed_at) VALUES (?, ?)")) {
                for (int i = 0; i < WARM_UP + turns; i++) {
                    int row = i;
                    String[] runId = new String[1];
                    // The bare commit takes turns at going first, last, and between the pause and the decision.
                    for (int step = 0; step < 3; step++) {
                        int which = (i % 3 == step) ? BARE : (runId[0] == null ? PAUSE : DECISION);
                        StoreCommits before = store.commits();
                        // The user time is read from /proc, a file read of its own: outside the CPU's window.
                        long startUser = THREADS.getCurrentThreadUserTime();
                        long startCpu = THREADS.getCurrentThreadCpuTime();
                        long start = System.nanoTime();
                        switch (which) {
                            case BARE -> commitOneRow(insert, row);
                            case PAUSE -> runId[0] = pause(service);
                            default -> {
                                RunCard card = readCard(service, runId[0]);
                                before = store.commits();
                                startUser = THREADS.getCurrentThreadUserTime();
                                startCpu = THREADS.getCurrentThreadCpuTime();
                                start = System.nanoTime();
                                approve(service, card);
                            }
                        }
                        long took = System.nanoTime() - start;
                        long tookCpu = THREADS.getCurrentThreadCpuTime() - startCpu;
                        long tookUser = THREADS.getCurrentThreadUserTime() - startUser;
                        StoreCommits made = store.commits().since(before);
                        if (i >= WARM_UP) {
                            times[which][i - WARM_UP] = took;
                            cpu[which][i - WARM_UP] = tookCpu;
                            kernel[which][i - WARM_UP] = tookCpu - tookUser;
                            durable[which][i - WARM_UP] = made.durable();
                            deferred[which][i - WARM_UP] = made.deferred();
                        }
                    }
                }
            }
            report(turns, times, durable, deferred);
            reportCpu(cpu, kernel);
            if (postgres) {
                walSyncs(service, bare);
            }
        }
    }

    /** The run service over the store, with the scripted agent and its write tool. */
    private static DefaultRunService service(Store store) {
        String page = IntStream.range(0, 40).mapToObj(line -> "Line " + line + " of the release notes, as written.")
                .reduce((a, b) -> a + "\n" + b).orElseThrow();
        ObjectNode arguments = JSON.createObjectNode().put("path", "NOTES.md").put("content", page);
        List<AssistantTurn> script = List.of(
                new AssistantTurn("I will rewrite the notes.", List.of(new ToolCall("w", "bench_write", arguments)),
                        new TokenUsage(900, 400)),
                new AssistantTurn("The notes are rewritten.", List.of(), new TokenUsage(1200, 30)));
        ModelConfiguration model = ModelConfiguration.scripted(AGENT);
        store.configurations().saveModel(model);
        store.configurations().saveAgent(StoredAgentConfiguration.of(AgentConfiguration.of(AGENT, model,
                List.of("bench")).withSystemPrompt("Keep the release notes tidy and short."), "[]"));
        return DefaultRunService.overStore(store, ToolRegistry.of(new DecisionBenchmark.Write()),
                new NetworkntSchemaValidator(),
                ScriptedChatModel.byModel(Map.of(AGENT, script)), InvocationRules.none(), Clock.systemUTC(),
                IdGenerator.random(), Locale.ENGLISH);
    }

    private static String pause(DefaultRunService service) {
        StartedRun started = service.start(OPERATOR, AGENT, "Tidy the release notes", false);
        if (started.status() != RunStatus.WAITING_FOR_APPROVAL) {
            throw new IllegalStateException("the benchmark's run did not pause: " + started.status());
        }
        return started.runId();
    }

    private static RunCard readCard(DefaultRunService service, String runId) {
        Optional<RunCard> card = service.card(OPERATOR, runId);
        return card.orElseThrow(() -> new IllegalStateException("run " + runId + " shows no card"));
    }

    private static void approve(DefaultRunService service, RunCard card) {
        DecisionResult result = service.decide(OPERATOR, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)));
        if (!(result instanceof DecisionResult.Done done) || done.status() != RunStatus.COMPLETED) {
            throw new IllegalStateException("the benchmark's decision did not complete the run: " + result);
        }
    }

    private static void commitOneRow(PreparedStatement insert, int row) {
        try {
            insert.setLong(1, row);
            insert.setLong(2, System.nanoTime());
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void report(int turns, long[][] times, long[][] durable, long[][] deferred) {
        System.out.printf("%n%,d of each, in turns%n", turns);
        double commit = line("a bare single-row durable commit", times[BARE], durable[BARE], deferred[BARE]);
        double pause = line("a pause (start to the card)", times[PAUSE], durable[PAUSE], deferred[PAUSE]);
        double decision = line("an approved single-call decision", times[DECISION], durable[DECISION],
                deferred[DECISION]);
        System.out.printf("medians against the bare commit: pause %.2f x (goal 1.5 x), decision %.2f x (goal 2.5 x)%n",
                pause / commit, decision / commit);
    }

    /**
     * The CPU time of the measuring thread (the pause and the decision run on it), which the other programs on a
     * loaded machine disturb much less than the wall time: the disk's wait is not in it. The kernel's part (the
     * writes of the log and its syncs) is printed apart, as Java's own work is what a profile of the thread shows;
     * as the kernel counts a thread's user time in whole ticks, only its mean over many turns says something.
     */
    private static void reportCpu(long[][] cpu, long[][] kernel) {
        System.out.printf("CPU of the calling thread, median: bare commit %.3f ms, pause %.3f ms, decision %.3f ms%n",
                median(cpu[BARE]), median(cpu[PAUSE]), median(cpu[DECISION]));
        System.out.printf("CPU in the kernel, mean of all / mean:  bare commit %.3f / %.3f ms, pause %.3f / %.3f ms,"
                + " decision %.3f / %.3f ms%n", mean(kernel[BARE]), mean(cpu[BARE]), mean(kernel[PAUSE]),
                mean(cpu[PAUSE]), mean(kernel[DECISION]), mean(cpu[DECISION]));
    }

    private static double mean(long[] nanos) {
        return Arrays.stream(nanos).average().orElse(0) / 1e6;
    }

    private static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }

    /** Prints the median, the 90th percentile and the mean commits of the store; returns the median. */
    private static double line(String what, long[] nanos, long[] durable, long[] deferred) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double median = sorted[sorted.length / 2] / 1e6;
        System.out.printf("  %-36s median %6.3f ms, p90 %6.3f ms; store commits %.2f durable, %.2f deferred%n",
                what, median, sorted[sorted.length * 9 / 10] / 1e6, Arrays.stream(durable).average().orElse(0),
                Arrays.stream(deferred).average().orElse(0));
        return median;
    }

    /**
     * The server's WAL syncs (background writers included) of pauses alone and then their decisions, counted
     * together: a backend reports its statistics when it sees fit (at most once a second while busy), so a count
     * read between the two stretches put some of the pauses' syncs among the decisions' (0.00 per pause at times).
     */
    private static void walSyncs(DefaultRunService service, Connection bare) throws SQLException {
        long start = walSync(bare);
        String[] runs = new String[ALONE];
        for (int i = 0; i < ALONE; i++) {
            runs[i] = pause(service);
        }
        for (String runId : runs) {
            approve(service, readCard(service, runId));
        }
        long decided = walSync(bare);
        System.out.printf("pg_stat_wal.wal_sync: %.2f per pause and its decision (%d of each, alone)%n",
                (decided - start) / (double) ALONE, ALONE);
    }

    private static long walSync(Connection bare) throws SQLException {
        try (Statement statement = bare.createStatement();
             ResultSet row = statement.executeQuery("SELECT wal_sync FROM pg_stat_wal")) {
            row.next();
            return row.getLong(1);
        }
    }
}
