package io.countersign.cli;

import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.RunWorker;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code worker}: executes queued runs until stopped (or, with {@code --drain}, until the queue is empty). */
@Command(name = "worker", description = "Execute queued runs and carry out decisions left to workers, each under"
        + " its initiator's identity. Several workers may share one PostgreSQL store; none takes a run another"
        + " holds, and the runs of a worker that stops are recovered. Stops on SIGTERM or Ctrl-C once its runs in"
        + " progress end their stretch, prints its report and exits 0. Progress goes to standard error, the final"
        + " report to standard output.")
final class WorkerCommand extends Subcommand {
    private static final Duration DEADLINE_SWEEP = Duration.ofSeconds(5);

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "Runs executed at once (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--lease", paramLabel = "SECONDS", defaultValue = "60", description = "How long a run stays"
            + " this worker's without a renewal; renewed every third of it (default: ${DEFAULT-VALUE}).")
    long leaseSeconds;

    @Option(names = "--drain", description = "Stop once the queue is empty.")
    boolean drain;

    @Override
    CountersignRuntime.Work work() {
        return CountersignRuntime.Work.RUN_AGENTS;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        RunWorker.Options options = RunWorker.Options.defaults().withThreads(threads)
                .withLease(Duration.ofSeconds(leaseSeconds)).withDrain(drain);
        // The worker names itself only once made; its progress lines carry that name.
        AtomicReference<String> name = new AtomicReference<>("worker");
        RunWorker worker = runtime().execution().worker(actor(), options, progress -> {
            synchronized (err) {
                err.println(name.get() + ": " + describe(progress));
                err.flush();
            }
        });
        name.set(worker.id());
        // A worker applies overdue deadlines too, so a store without a console still keeps them.
        runtime().sweepDeadlinesEvery(DEADLINE_SWEEP);
        err.println(worker.id() + ": working on " + runtime().describeStore() + " with " + threads + " thread"
                + (threads == 1 ? "" : "s") + " as " + actor().name());
        err.flush();
        CountDownLatch finished = new CountDownLatch(1);
        // Any other shutdown (SIGHUP, System.exit elsewhere) still lets the runs in progress end their stretch.
        Thread stopOnSignal = new Thread(() -> {
            worker.stop();
            try {
                finished.await(leaseSeconds, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "countersign-worker-stop");
        Runtime.getRuntime().addShutdownHook(stopOnSignal);
        RunWorker.Report report;
        try (StopSignals signals = StopSignals.onStop(() -> {
            synchronized (err) {
                err.println(worker.id() + ": stopping once the runs in progress end their stretch");
                err.flush();
            }
            worker.stop();
        })) {
            report = worker.run();
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnSignal);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running: it waited for this very moment.
            }
        }
        return print(Views.object().put("workerId", report.workerId()).put("firstStretches", report.firstStretches())
                .put("decisionsCarriedOut", report.decisionsCarriedOut()).put("recovered", report.recovered())
                .put("failed", report.failed()));
    }

    private static String describe(RunWorker.Progress progress) {
        String what = switch (progress.kind()) {
            case FIRST_STRETCH -> "ran run " + progress.runId();
            case DECISION_CARRIED_OUT -> "carried out the decision on run " + progress.runId();
            case RECOVERED -> "recovered run " + progress.runId() + " from a stopped worker";
            case FAILED -> progress.runId() == null ? "could not reach the store" : "failed on run " + progress.runId();
            case LEASE_LOST -> "lost run " + progress.runId();
        };
        return what + (progress.status() == null ? "" : ": " + progress.status().code())
                + (progress.detail() == null ? "" : " (" + progress.detail() + ")");
    }
}
