package io.countersign.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.testing.FastJava;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code countersign worker} processes on one store, each a JVM started as the tests start the command line (client
 * compiler, serial collector), each with the ledger server its store's record names as a child of its own.
 */
final class TeamWorkers implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long READY_SECONDS = 180;
    private final List<Worker> workers;

    private record Worker(Process process, Path out, Path err) {
        String errors() throws IOException {
            return Files.readString(err, StandardCharsets.UTF_8);
        }
    }

    /** What the workers' own reports say they did, summed. */
    record Report(int firstStretches, int decisionsCarriedOut, int recovered, int failed) {
    }

    private TeamWorkers(List<Worker> workers) {
        this.workers = workers;
    }

    /** Starts {@code count} workers of {@code threads} threads each and waits until every one works. */
    static TeamWorkers start(String store, int count, int threads, Path folder) throws Exception {
        List<Worker> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ProcessBuilder builder = new ProcessBuilder(FastJava.countersign("--store", store, "worker", "--threads",
                    Integer.toString(threads))).directory(folder.toFile());
            builder.environment().remove("COUNTERSIGN_STORE");
            builder.environment().keySet().removeIf(name -> name.startsWith("OTEL_"));
            Path out = Files.createTempFile(folder, "worker-out", ".txt");
            Path err = Files.createTempFile(folder, "worker-err", ".txt");
            builder.redirectOutput(out.toFile()).redirectError(err.toFile());
            started.add(new Worker(builder.start(), out, err));
        }
        TeamWorkers workers = new TeamWorkers(started);
        try {
            workers.awaitReady();
        } catch (Exception e) {
            workers.close();
            throw e;
        }
        return workers;
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
        for (Worker worker : workers) {
            while (!worker.errors().contains(": working on ")) {
                if (!worker.process().isAlive()) {
                    throw new IllegalStateException("a worker ended before it worked (exit "
                            + worker.process().exitValue() + "): " + worker.errors());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("a worker did not start working within " + READY_SECONDS
                            + " s: " + worker.errors());
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
    }

    /** Stops every worker as SIGTERM does and sums their reports. */
    Report stop() throws IOException, InterruptedException {
        workers.forEach(worker -> worker.process().destroy());
        int first = 0;
        int decisions = 0;
        int recovered = 0;
        int failed = 0;
        for (Worker worker : workers) {
            if (!worker.process().waitFor(2, TimeUnit.MINUTES)) {
                worker.process().destroyForcibly();
                throw new IllegalStateException("a worker did not stop within 2 minutes of SIGTERM: "
                        + worker.errors());
            }
            JsonNode report = JSON.readTree(Files.readString(worker.out(), StandardCharsets.UTF_8));
            if (report == null) {
                throw new IllegalStateException("a worker stopped without its report (exit "
                        + worker.process().exitValue() + "): " + worker.errors());
            }
            first += report.path("firstStretches").asInt();
            decisions += report.path("decisionsCarriedOut").asInt();
            recovered += report.path("recovered").asInt();
            failed += report.path("failed").asInt();
        }
        return new Report(first, decisions, recovered, failed);
    }

    /**
     * How many times a worker said it lost the lease on a run it ran: the run was recovered, so some worker's report
     * counts it as recovered too, unless the report is mistaken.
     */
    int lostLeaseReports() throws IOException {
        int lost = 0;
        for (Worker worker : workers) {
            lost += (int) worker.errors().lines().filter(line -> line.contains(": lost run ")).count();
        }
        return lost;
    }

    @Override
    public void close() {
        workers.forEach(worker -> worker.process().destroyForcibly());
    }
}
