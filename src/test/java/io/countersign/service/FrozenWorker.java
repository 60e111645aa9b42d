package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ModelException;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.NetworkntSchemaValidator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The child process of the frozen-worker trials of {@link CrashStepsTest}: a worker of two threads with a
 * one-second lease executes one queued unattended run that counts once ({@link TallyTool}). One model call of the
 * process, the first or the second, prints "asking" and takes {@value #SLOW_MILLIS} ms, long enough for the test to
 * freeze the process (SIGSTOP) past the lease and let it go (SIGCONT) while that thread still waits for the model:
 * the other thread then recovers the run and carries it on. Once the run is completed or flagged the worker stops,
 * after its threads have finished what they held, and the process ends.
 *
 * <p>Arguments: the store (a SQLite file or a {@code jdbc:postgresql:} URL), the ledger file, the slow call (1 or 2).
 */
public final class FrozenWorker {
    static final int SLOW_MILLIS = 3500;
    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private FrozenWorker() {
    }

    public static void main(String[] args) throws Exception {
        StoreLocation location = args[0].startsWith("jdbc:") ? new StoreLocation.Postgres(args[0])
                : new StoreLocation.SqliteFile(Path.of(args[0]));
        int slowCall = Integer.parseInt(args[2]);
        try (Store store = Store.open(location)) {
            List<Tool> tools = List.of(new TallyTool(Path.of(args[1])));
            ServiceRig.saveAgents(store, tools, TallyTool.scripts());
            DefaultRunService service = DefaultRunService.overStore(store, ToolRegistry.of(tools.toArray(Tool[]::new)),
                    new NetworkntSchemaValidator(),
                    new SlowAt(ScriptedChatModel.byModel(TallyTool.scripts()), slowCall), InvocationRules.none(),
                    Clock.systemUTC(), IdGenerator.random(), Locale.ENGLISH);
            DefaultExecutionService execution = new DefaultExecutionService(service, store.runs(), store.runs(),
                    store.users(), store.changes(), Clock.systemUTC(), IdGenerator.random());
            Actor olga = store.users().ensureUser("olga");
            String runId = execution.enqueue(olga, TallyTool.COUNTER, "Count once", true).runId();
            RunWorker worker = execution.worker(olga, new RunWorker.Options(2, LEASE, Duration.ofMillis(100), false),
                    progress -> System.out.println("progress " + progress));
            Thread working = new Thread(worker::run, "frozen-worker");
            working.start();
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (!settled(store.runs().find(runId).orElseThrow())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("run " + runId + " did not settle within " + DEADLINE);
                }
                Thread.sleep(50);
            }
            worker.stop();
            working.join();
            System.out.println("settled " + runId);
        }
    }

    private static boolean settled(StoredRun run) {
        return run.status().finished() || run.outcomeUnknown();
    }

    /** The scripted model, with one call of the process slow. */
    private record SlowAt(ChatModel model, int slowCall, AtomicInteger calls) implements ChatModel {
        SlowAt(ChatModel model, int slowCall) {
            this(model, slowCall, new AtomicInteger());
        }

        @Override
        public AssistantTurn complete(ChatRequest request) throws ModelException {
            if (calls.incrementAndGet() == slowCall) {
                System.out.println("asking");
                System.out.flush();
                try {
                    Thread.sleep(SLOW_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return model.complete(request);
        }
    }
}
