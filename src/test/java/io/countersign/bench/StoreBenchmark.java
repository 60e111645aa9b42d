package io.countersign.bench;

import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The store's benchmarks (issue 5), as a plain main:
 * <ol>
 *   <li>append: {@code EventStore.appendAll} against a bare batched JDBC insert of the same kind of rows into the
 *       same table of the same database, chunk by chunk in turns, so both meet the same table size;</li>
 *   <li>the first page of a filtered query, and counts by reason, in a store of exactly {@code events} rows;</li>
 *   <li>one decision commit ({@code RunStore.claim} on a waiting run) against a bare single-row durable commit
 *       into the same database, in turns.</li>
 * </ol>
 * Arguments: {@code sqlite|postgres} (default sqlite), the number of events (default 1,000,000; 0 skips the
 * event benchmarks), the number of decisions (default 1,000; 0 skips).
 */
public final class StoreBenchmark {
    private static final int CHUNK = 10_000;
    private static final int PAGE = 50;
    private static final Instant END = Instant.parse("2026-03-01T00:00:00Z");
    private static final Duration SPAN = Duration.ofDays(90);
    private static final String[] REASONS = {"outside_workspace", "zone.ceiling", "no_approval", "rate_limited",
        "secret_path", "host_not_allowed", "schema_mismatch", "oversize_argument", "disabled_tool",
        "disabled_group", "unknown_tool", "stale_card"};
    private static final String[] TOOLS = {"fs.read", "fs.write", "fs.list", "shell.run", "web_fetch", "git.diff",
        "git.commit", "http.post", "db.query", "mail.send", "ticket.update", "ticket.read", "calendar.read",
        "search.code", "search.docs", "deploy.plan", "deploy.apply", "secrets.list", "logs.tail", "metrics.read"};
    private static final String[] RULES = {"workspace.boundary", "gate.trust_zone", "rate.per_run", "secret.paths",
        "host.allow_list", "args.schema", "args.size", "tool.settings"};
    private static final String[] AGENTS = {"triage", "release", "support", "research", "ops"};
    private static final String[] MODELS = {"local-llama", "gpt-eu", "claude-global", "mistral-private"};

    private StoreBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String database = args.length > 0 ? args[0] : "sqlite";
        int events = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int decisions = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        if (events % CHUNK != 0) {
            throw new IllegalArgumentException("the number of events must be a multiple of " + CHUNK);
        }
        System.out.printf("Countersign store benchmark: %s, %,d events, %,d decisions, Java %s%n", database, events,
                decisions, Runtime.version());
        try (Databases databases = Databases.named(database)) {
            if (events > 0) {
                appendAgainstBareInsert(databases.fresh(), events);
                queries(databases.fresh(), events);
            }
            if (decisions > 0) {
                DecisionBenchmark.claimAgainstBareCommit(databases.fresh(), decisions);
            }
        }
    }

    private static void appendAgainstBareInsert(Target target, int events) throws SQLException {
        Generator generator = new Generator(new Random(7), events * 2L);
        long storeNanos = 0;
        long bareNanos = 0;
        try (Store store = Store.open(target.location());
             Connection bare = target.bareConnection();
             PreparedStatement insert = bare.prepareStatement("INSERT INTO governance_events (id, event_time,"
                     + " event_type, reason_code, tool_name, rule_id, run_id, agent_configuration, actor, model,"
                     + " detail, written_at_schema) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 27)")) {
            bare.setAutoCommit(false);
            for (int done = 0; done < events; done += CHUNK) {
                List<GovernanceEvent> forStore = generator.next(CHUNK);
                List<GovernanceEvent> forBare = generator.next(CHUNK);
                // Take turns at going first, so that neither always meets the caches the other warmed.
                boolean storeFirst = done / CHUNK % 2 == 0;
                if (!storeFirst) {
                    bareNanos += timed(() -> bareInsert(bare, insert, forBare));
                }
                storeNanos += timed(() -> store.events().appendAll(forStore));
                if (storeFirst) {
                    bareNanos += timed(() -> bareInsert(bare, insert, forBare));
                }
            }
        }
        double storeRate = events / (storeNanos / 1e9);
        double bareRate = events / (bareNanos / 1e9);
        System.out.printf("append %,d events through EventStore.appendAll: %,.0f events/s%n", events, storeRate);
        System.out.printf("append %,d events by a bare batched insert:     %,.0f events/s%n", events, bareRate);
        System.out.printf("appendAll rate / bare rate: %.0f %% (goal: at least 80 %%)%n", 100 * storeRate / bareRate);
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

    private static void bareInsert(Connection connection, PreparedStatement insert, List<GovernanceEvent> events)
            throws SQLException {
        int pending = 0;
        for (GovernanceEvent event : events) {
            insert.setString(1, event.id());
            insert.setLong(2, event.time().getEpochSecond() * 1_000_000_000L + event.time().getNano());
            insert.setString(3, event.type().code());
            insert.setString(4, event.reasonCode());
            insert.setString(5, event.toolName());
            insert.setString(6, event.ruleId());
            insert.setString(7, event.runId());
            insert.setString(8, event.agentConfiguration());
            insert.setString(9, event.actor());
            insert.setString(10, event.model());
            insert.setString(11, event.detail());
            insert.addBatch();
            if (++pending == 1000) {
                insert.executeBatch();
                pending = 0;
            }
        }
        if (pending > 0) {
            insert.executeBatch();
        }
        connection.commit();
    }

    private static void queries(Target target, int events) {
        try (Store store = Store.open(target.location())) {
            Generator generator = new Generator(new Random(11), events);
            for (int done = 0; done < events; done += CHUNK) {
                store.events().appendAll(generator.next(CHUNK));
            }
            System.out.printf("%nqueries over %,d events (medians of repeated runs; first run in brackets)%n",
                    events);
            EventFilter lastWeek = EventFilter.all().between(END.minus(Duration.ofDays(7)), END);
            report("first page, newest first, no filter", () -> store.events()
                    .page(EventFilter.all(), PageRequest.first(PAGE)).events().size(), 50);
            report("first page, reason + last 7 days", () -> store.events()
                    .page(lastWeek.withReasonCode("secret_path"), PageRequest.first(PAGE)).events().size(), 50);
            report("first page, tool + actor", () -> store.events()
                    .page(EventFilter.all().withToolName("fs.write").withActor("user02"),
                            PageRequest.first(PAGE)).events().size(), 50);
            report("first page, two types", () -> store.events()
                    .page(EventFilter.all().ofTypes(java.util.Set.of(EventType.TOOL_DENIED,
                            EventType.WRITE_UNAPPROVED)), PageRequest.first(PAGE)).events().size(), 50);
            report("first page, text search \"secret\"", () -> store.events()
                    .page(EventFilter.all().withText("secret"), PageRequest.first(PAGE)).events().size(), 50);
            report("page 20 by cursor, reason filter", () -> {
                EventFilter filter = EventFilter.all().withReasonCode("outside_workspace");
                var page = store.events().page(filter, PageRequest.first(PAGE));
                for (int i = 1; i < 20; i++) {
                    page = store.events().page(filter, PageRequest.after(page.next(), PAGE));
                }
                return page.events().size();
            }, 10);
            report("counts by reason, all events", () -> store.events().countsByReason(EventFilter.all()).size(),
                    10);
            report("counts by reason, last 7 days", () -> store.events().countsByReason(lastWeek).size(), 10);
            report("counts by day, all events", () -> store.events()
                    .countsByDay(EventFilter.all(), java.time.ZoneOffset.UTC).size(), 10);
        }
    }

    private static void report(String what, Supplier<Integer> query, int runs) {
        long first = time(query);
        long[] times = new long[runs];
        for (int i = 0; i < runs; i++) {
            times[i] = time(query);
        }
        Arrays.sort(times);
        System.out.printf("  %-40s %8.1f ms  [%.1f ms]%n", what, times[runs / 2] / 1e6, first / 1e6);
    }

    private static long time(Supplier<Integer> query) {
        long start = System.nanoTime();
        int rows = query.get();
        long elapsed = System.nanoTime() - start;
        if (rows == 0) {
            throw new IllegalStateException("a benchmark query found nothing; the data does not fit it");
        }
        return elapsed;
    }

    /** Events spread evenly over ninety days, in time order, with skewed codes as real denials are. */
    private static final class Generator {
        private final Random random;
        private final long total;
        private long made;
        private String run = UUID.randomUUID().toString();

        Generator(Random random, long total) {
            this.random = random;
            this.total = total;
        }

        List<GovernanceEvent> next(int count) {
            List<GovernanceEvent> events = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Instant time = END.minus(SPAN).plusNanos(SPAN.toNanos() / total * made++);
                if (random.nextInt(20) == 0) {
                    run = UUID.randomUUID().toString();
                }
                EventType type = EventType.values()[skewed(EventType.values().length)];
                boolean refusal = type != EventType.APPROVAL_DECIDED && type != EventType.INPUT_SUBMITTED;
                events.add(new GovernanceEvent(UUID.randomUUID().toString(), time, type,
                        refusal ? REASONS[skewed(REASONS.length)] : null,
                        TOOLS[skewed(TOOLS.length)],
                        type == EventType.INVOCATION_DENIED ? RULES[skewed(RULES.length)] : null,
                        run, AGENTS[skewed(AGENTS.length)], String.format("user%02d", skewed(15)),
                        MODELS[skewed(MODELS.length)], refusal ? null : "approved=1 denied=0"));
            }
            return events;
        }

        /** 0 about half the time, 1 a quarter, and so on, capped at {@code size - 1}. */
        private int skewed(int size) {
            int value = 0;
            while (value < size - 1 && random.nextBoolean()) {
                value++;
            }
            return value;
        }
    }

    /** One database under test and a bare connection to it. */
    record Target(StoreLocation location, Supplier<Connection> bare) {
        Connection bareConnection() {
            return bare.get();
        }
    }

    /** Fresh databases of one kind, each a store of its own; closing them deletes them. */
    interface Databases extends Closeable {
        Target fresh() throws Exception;

        /** SQLite files in a temporary folder ({@code sqlite}), or an embedded PostgreSQL ({@code postgres}). */
        static Databases named(String database) throws java.io.IOException {
            return database.equals("postgres") ? new Postgres() : new Sqlite();
        }
    }

    private static final class Sqlite implements Databases {
        private final Path folder = Files.createTempDirectory("countersign-bench");
        private int made;

        Sqlite() throws java.io.IOException {
        }

        @Override
        public Target fresh() {
            Path file = folder.resolve("bench-" + ++made + ".db");
            return new Target(new StoreLocation.SqliteFile(file), () -> {
                try {
                    // The same durability as the store's own connections.
                    Properties settings = new Properties();
                    settings.setProperty("journal_mode", "WAL");
                    settings.setProperty("synchronous", "FULL");
                    settings.setProperty("cache_size", "-16384");
                    return DriverManager.getConnection("jdbc:sqlite:" + file, settings);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
        }

        @Override
        public void close() throws java.io.IOException {
            try (var files = Files.walk(folder)) {
                for (Path path : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    private static final class Postgres implements Databases {
        // The embedded server starts with fsync off (-F) and synchronous commits off; a durable commit waits until
        // its WAL is flushed to the disk, so both are turned back on (a -c setting wins over -F).
        private final EmbeddedPostgres server = EmbeddedPostgres.builder()
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on").start();
        private int made;

        Postgres() throws java.io.IOException {
        }

        @Override
        public Target fresh() throws SQLException {
            String name = "bench_" + ++made;
            try (Connection connection = server.getPostgresDatabase().getConnection();
                 Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + name);
            }
            String url = server.getJdbcUrl("postgres", name);
            return new Target(new StoreLocation.Postgres(url), () -> {
                try {
                    Properties settings = new Properties();
                    settings.setProperty("reWriteBatchedInserts", "true");
                    return DriverManager.getConnection(url, settings);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
        }

        @Override
        public void close() throws java.io.IOException {
            server.close();
        }
    }
}
