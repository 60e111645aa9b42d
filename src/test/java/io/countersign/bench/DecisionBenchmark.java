package io.countersign.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.RunClaims;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.RequiresApproval;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import io.countersign.store.Store;
import io.countersign.tools.NetworkntSchemaValidator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * One decision commit ({@code RunStore.claim} on a waiting run: the run updated only while it waits on the decided
 * card, the decision inserted under its unique key, the claimed run read back) against a bare single-row durable
 * commit into the same database, in turns, so that all meet the same disk and the same caches. The claim is
 * measured twice: as the service makes it, after reading the card (untimed; {@code DefaultRunService} reads the
 * run before it claims it, and the claim then reuses the paused state decoded from the same text), and alone, on
 * a run nothing read before. All first run {@value #WARM_UP} untimed turns, so that none is measured while its
 * code is still being compiled.
 */
final class DecisionBenchmark {
    private static final Actor OPERATOR = Actor.of("bench", Role.OPERATOR);
    private static final int WARM_UP = 200;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BARE = 0;
    private static final int AFTER_READ = 1;
    private static final int ALONE = 2;

    private DecisionBenchmark() {
    }

    static void claimAgainstBareCommit(StoreBenchmark.Target target, int decisions) throws SQLException {
        int turns = WARM_UP + decisions;
        try (Store store = Store.open(target.location());
             Connection bare = target.bareConnection()) {
            List<PausedState> read = waitingRuns(store, "read-", turns);
            List<PausedState> alone = waitingRuns(store, "alone-", turns);
            try (Statement ddl = bare.createStatement()) {
                ddl.execute("CREATE TABLE bench_commits (id BIGINT PRIMARY KEY, committed_at BIGINT NOT NULL)");
            }
            bare.setAutoCommit(true);
            System.out.printf("%nthe database's durability: %s%n", durability(bare));
            long[][] times = new long[3][turns];
            try (PreparedStatement insert = bare.prepareStatement(
                    "INSERT INTO bench_commits (id, committed_at) VALUES (?, ?)")) {
                for (int i = 0; i < turns; i++) {
                    int row = i;
                    Decision afterRead = approval(read.get(i));
                    Decision claimAlone = approval(alone.get(i));
                    // Take turns at going first, so that none always follows another's fsync.
                    for (int step = 0; step < 3; step++) {
                        int which = (i + step) % 3;
                        if (which == AFTER_READ) {
                            store.runs().find(afterRead.runId()).orElseThrow();
                        }
                        times[which][i] = switch (which) {
                            case BARE -> timed(() -> commitOneRow(insert, row));
                            case AFTER_READ -> timed(() -> claim(store, afterRead));
                            default -> timed(() -> claim(store, claimAlone));
                        };
                    }
                }
            }
            report(decisions, Arrays.stream(times).map(measured -> Arrays.copyOfRange(measured, WARM_UP, turns))
                    .toArray(long[][]::new));
        }
    }

    /** The settings that decide whether a commit waits for the disk, read back from the database itself. */
    static String durability(Connection connection) throws SQLException {
        boolean postgres = connection.getMetaData().getDatabaseProductName().equals("PostgreSQL");
        List<String> settings = postgres ? List.of("fsync", "synchronous_commit", "wal_sync_method")
                : List.of("journal_mode", "synchronous");
        List<String> values = new ArrayList<>();
        try (Statement statement = connection.createStatement()) {
            for (String setting : settings) {
                try (var result = statement.executeQuery((postgres ? "SHOW " : "PRAGMA ") + setting)) {
                    result.next();
                    String value = result.getString(1);
                    // SQLite reads its synchronous level back as a number
                    values.add(setting + "=" + (setting.equals("synchronous")
                            ? List.of("OFF", "NORMAL", "FULL", "EXTRA").get(Integer.parseInt(value)) : value));
                }
            }
        }
        return String.join(", ", values);
    }

    private static Decision approval(PausedState state) {
        return Decision.approval(state.runId(), OPERATOR.name(), Instant.now(), state.digest(),
                List.of(Decision.CallVerdict.approve(0)));
    }

    /** Runs paused on a write of a page of text, with its diff preview: a card of a usual size. */
    private static List<PausedState> waitingRuns(Store store, String prefix, int count) {
        String page = IntStream.range(0, 40).mapToObj(line -> "Line " + line + " of the release notes, as written.")
                .reduce((a, b) -> a + "\n" + b).orElseThrow();
        ObjectNode arguments = JSON.createObjectNode().put("path", "NOTES.md").put("content", page);
        ToolLoop loop = ToolLoop.builder(ToolRegistry.of(new Write()), ScriptedChatModel.of(List.of(
                new AssistantTurn("I will rewrite the notes.", List.of(new ToolCall("w", "bench_write", arguments)),
                        new TokenUsage(900, 400))))).schemas(new NetworkntSchemaValidator()).build();
        AgentConfiguration agent = AgentConfiguration.of("bench", ModelConfiguration.scripted("bench"),
                List.of("bench")).withSystemPrompt("Keep the release notes tidy and short.");
        List<PausedState> waiting = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String runId = prefix + i;
            Instant now = Instant.now();
            RunLease lease = store.runs().create(runId, agent.name(), OPERATOR.name(), "Tidy the release notes",
                    false, now);
            RunOutcome outcome = loop.runLoop(RunRequest.of(agent, ToolExecutionContext.of(OPERATOR, runId,
                    Locale.ENGLISH), "Tidy the release notes"));
            store.runs().recordOutcome(lease, outcome, now);
            waiting.add(((RunOutcome.Paused) outcome).state());
        }
        return waiting;
    }

    private static void claim(Store store, Decision decision) {
        if (!(store.runs().claim(decision) instanceof RunClaims.ClaimResult.Claimed)) {
            throw new IllegalStateException("the benchmark's claim on " + decision.runId() + " did not win");
        }
    }

    private static void commitOneRow(PreparedStatement insert, int row) throws SQLException {
        insert.setLong(1, row);
        insert.setLong(2, System.nanoTime());
        insert.executeUpdate();
    }

    @FunctionalInterface
    private interface Work {
        void run() throws SQLException;
    }

    private static long timed(Work work) throws SQLException {
        long start = System.nanoTime();
        work.run();
        return System.nanoTime() - start;
    }

    private static void report(int decisions, long[][] times) {
        System.out.printf("%n%,d decisions of each kind, in turns with a bare commit, after %d untimed turns%n",
                decisions, WARM_UP);
        double afterRead = line("one decision commit, the card read first", times[AFTER_READ]);
        double alone = line("one decision commit alone", times[ALONE]);
        double commit = line("a bare single-row durable commit", times[BARE]);
        System.out.printf("decision commit / bare commit, medians: %.1f x the card read first, %.1f x alone"
                + " (goal: within 3 x)%n", afterRead / commit, alone / commit);
    }

    /** Prints the median and the 90th percentile; returns the median. */
    private static double line(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double median = sorted[sorted.length / 2] / 1e6;
        System.out.printf("  %-40s median %7.2f ms, p90 %7.2f ms%n", what, median,
                sorted[sorted.length * 9 / 10] / 1e6);
        return median;
    }

    /** An approval-bound write of a page of text that writes nothing, so that only the store meets the disk. */
    static final class Write implements RequiresApproval {
        @Override
        public String name() {
            return "bench_write";
        }

        @Override
        public String description() {
            return "Writes a file.";
        }

        @Override
        public ObjectNode argumentSchema() {
            ObjectNode schema = JSON.createObjectNode().put("type", "object");
            ObjectNode properties = schema.putObject("properties");
            properties.putObject("path").put("type", "string");
            properties.putObject("content").put("type", "string");
            return schema;
        }

        @Override
        public ToolEffect effect() {
            return ToolEffect.WRITE;
        }

        @Override
        public DataClass dataClass() {
            return DataClass.PUBLIC_CONTENT;
        }

        @Override
        public String group() {
            return "bench";
        }

        @Override
        public Optional<ToolPreview> preview(ToolCallRequest request) {
            return Optional.of(ToolPreview.clipped(request.arguments().path("content").asText().lines()
                    .map(line -> "+" + line).toList()));
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            return ToolResult.ok("written");
        }
    }
}
