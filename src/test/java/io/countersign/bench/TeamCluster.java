package io.countersign.bench;

import io.countersign.engine.state.RunStatus;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The team-scale benchmark's PostgreSQL: one embedded server with {@code fsync} and synchronous commits on, a store
 * per schema, the server's own counters (transactions of the database, WAL bytes of the cluster), and pgbench's rate
 * on the same server.
 */
final class TeamCluster implements Closeable {
    private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)");
    private static final Pattern PROCESSED = Pattern.compile("number of transactions actually processed: (\\d+)");
    private final EmbeddedPostgres server;
    private final boolean countingStatements;

    /** @param countStatements whether the server keeps statement statistics ({@link #topStatements}), which cost */
    TeamCluster(boolean countStatements) throws IOException, SQLException {
        // The embedded server starts with fsync off (-F) and synchronous commits off; a -c setting wins over -F.
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("max_connections", "400");
        if (countStatements) {
            builder.setServerConfig("shared_preload_libraries", "pg_stat_statements");
        }
        server = builder.start();
        countingStatements = countStatements;
        if (countStatements) {
            try (Connection connection = bare(); Statement statement = connection.createStatement()) {
                statement.execute("CREATE EXTENSION pg_stat_statements");
            }
        }
    }

    /** Starts the statement statistics afresh, when the server keeps them. */
    void resetStatements(Connection connection) throws SQLException {
        if (countingStatements) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SELECT pg_stat_statements_reset()");
            }
        }
    }

    /**
     * The statements that took the server's most time since {@link #resetStatements}, one line each: the total
     * milliseconds, the calls, the mean and the statement's first 110 characters; empty when it keeps none.
     */
    List<String> topStatements(Connection connection, int count) throws SQLException {
        List<String> lines = new ArrayList<>();
        if (!countingStatements) {
            return lines;
        }
        try (PreparedStatement select = connection.prepareStatement("SELECT total_exec_time, calls, query"
                + " FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT ?")) {
            select.setInt(1, count);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    String query = rows.getString(3).replaceAll("\\s+", " ");
                    lines.add(String.format("%8.0f ms %,8d calls %6.3f ms  %s", rows.getDouble(1), rows.getLong(2),
                            rows.getDouble(1) / rows.getLong(2), query.substring(0, Math.min(110, query.length()))));
                }
            }
        }
        return lines;
    }

    /** A store of its own in a new schema of the {@code postgres} database. */
    StoreLocation.Postgres freshStore(String schema) throws SQLException {
        try (Connection connection = bare(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        }
        return new StoreLocation.Postgres(server.getJdbcUrl("postgres", "postgres") + "&currentSchema=" + schema);
    }

    /** A connection to the {@code postgres} database as its superuser, outside every store's pool. */
    Connection bare() throws SQLException {
        return server.getPostgresDatabase().getConnection();
    }

    /** {@code fsync=on, synchronous_commit=on, ...} as the server reads them back. */
    String durability() throws SQLException {
        try (Connection connection = bare()) {
            return DecisionBenchmark.durability(connection) + ", " + setting(connection, "server_version");
        }
    }

    private static String setting(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SHOW " + name)) {
            row.next();
            return name + "=" + row.getString(1);
        }
    }

    /**
     * The server's counters at one moment: the {@code postgres} database's transactions (committed and rolled back,
     * reads included), the cluster's transaction ids handed out (one for each transaction that wrote), its WAL
     * bytes and its WAL syncs; and the background work that competes with the team: checkpoints begun, and the
     * autovacuum daemon's vacuums and analyses of the database's tables.
     */
    record Counters(long transactions, long writes, long walBytes, long walSyncs, long checkpoints,
                    long autovacuums) {
        static final Counters NONE = new Counters(0, 0, 0, 0, 0, 0);

        Counters since(Counters before) {
            return new Counters(transactions - before.transactions, writes - before.writes,
                    walBytes - before.walBytes, walSyncs - before.walSyncs, checkpoints - before.checkpoints,
                    autovacuums - before.autovacuums);
        }
    }

    /** The counters now; the statistics collector receives a backend's counts up to half a second late. */
    Counters counters(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_stat_clear_snapshot()");
            try (ResultSet row = statement.executeQuery("SELECT (SELECT xact_commit + xact_rollback"
                    + " FROM pg_stat_database WHERE datname = current_database()),"
                    + " pg_snapshot_xmax(pg_current_snapshot())::text::bigint, wal_bytes, wal_sync,"
                    + " (SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter),"
                    + " (SELECT sum(autovacuum_count + autoanalyze_count) FROM pg_stat_all_tables) FROM pg_stat_wal")) {
                row.next();
                return new Counters(row.getLong(1), row.getLong(2), row.getBigDecimal(3).longValue(),
                        row.getLong(4), row.getLong(5), row.getLong(6));
            }
        }
    }

    /** How many runs of the schema's store have the status. */
    static long runsWith(Connection connection, String schema, RunStatus status) throws SQLException {
        try (PreparedStatement count = connection.prepareStatement(
                "SELECT count(*) FROM " + schema + ".runs WHERE status = ?")) {
            count.setString(1, status.code());
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    /**
     * Copies a waiting run until {@code total} runs wait, each a later wait than the last, with the tables'
     * triggers off (the superuser's replication role) as a restore does: a hundred thousand pauses through the
     * service would take longer than the rest of the benchmark. The copies share the run's card and digest.
     */
    void copyWaitingRun(String schema, String runId, int total) throws SQLException {
        try (Connection connection = bare(); Statement statement = connection.createStatement()) {
            List<String> columns = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SELECT column_name FROM information_schema.columns"
                    + " WHERE table_schema = '" + schema + "' AND table_name = 'runs' ORDER BY ordinal_position")) {
                while (rows.next()) {
                    columns.add(rows.getString(1));
                }
            }
            List<String> values = columns.stream().map(column -> switch (column) {
                case "id" -> "id || '-copy-' || copy";
                case "waiting_since" -> "waiting_since + copy";
                default -> column;
            }).toList();
            connection.setAutoCommit(false);
            statement.execute("SET LOCAL session_replication_role = replica");
            try (PreparedStatement copy = connection.prepareStatement("INSERT INTO " + schema + ".runs ("
                    + String.join(", ", columns) + ") SELECT " + String.join(", ", values) + " FROM " + schema
                    + ".runs CROSS JOIN generate_series(1, ?) AS copy WHERE id = ?")) {
                copy.setInt(1, total - 1);
                copy.setString(2, runId);
                copy.executeUpdate();
            }
            connection.commit();
            connection.setAutoCommit(true);
            statement.execute("ANALYZE " + schema + ".runs");
        }
    }

    /** What pgbench measured, or why it did not run. */
    record Pgbench(Optional<Double> tps, long transactions, Counters counters, String note) {
    }

    /**
     * pgbench's TPC-B-like transactions against a database of their own on this server, scale 10: the rate one
     * PostgreSQL on this disk commits small write transactions at, as the ceiling the benchmark's figures sit under.
     */
    Pgbench pgbench(String executable, int clients, int seconds, Path folder) throws Exception {
        try (Connection connection = bare(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE pgbench");
        }
        List<String> target = List.of("-h", "localhost", "-p", Integer.toString(server.getPort()), "-U", "postgres",
                "pgbench");
        List<String> init = new ArrayList<>(List.of(executable, "-i", "-q", "-s", "10"));
        init.addAll(target);
        Ran initialised = run(init, folder);
        if (initialised.exit() != 0) {
            return new Pgbench(Optional.empty(), 0, Counters.NONE, "not measured: " + initialised.output());
        }
        List<String> load = new ArrayList<>(List.of(executable, "-n", "-c", Integer.toString(clients), "-j", "2",
                "-T", Integer.toString(seconds)));
        load.addAll(target);
        Counters before;
        try (Connection connection = bare()) {
            before = counters(connection);
        }
        Ran measured = run(load, folder);
        Counters after;
        try (Connection connection = bare()) {
            TimeUnit.MILLISECONDS.sleep(600); // the statistics collector's delay
            after = counters(connection);
        }
        Matcher tps = TPS.matcher(measured.output());
        Matcher processed = PROCESSED.matcher(measured.output());
        if (measured.exit() != 0 || !tps.find() || !processed.find()) {
            return new Pgbench(Optional.empty(), 0, Counters.NONE, "not measured: " + measured.output());
        }
        return new Pgbench(Optional.of(Double.parseDouble(tps.group(1))), Long.parseLong(processed.group(1)),
                after.since(before), clients + " clients, 2 threads, scale 10, TPC-B-like, " + seconds + " s");
    }

    /** A command's exit status and output. */
    private record Ran(int exit, String output) {
    }

    /** Runs a command to its end; a command that cannot start answers exit -1 and why. */
    private static Ran run(List<String> command, Path folder) throws InterruptedException {
        try {
            Path log = Files.createTempFile(folder, "pgbench", ".log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return new Ran(-1, String.join(" ", command) + " did not end within 10 minutes");
            }
            return new Ran(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            return new Ran(-1, "`" + command.get(0) + "` could not be started (" + e.getMessage()
                    + "); install Debian's postgresql-client or give --pgbench PATH");
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
