package io.countersign.bench;

import io.countersign.engine.Actor;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a store for timing the console's cold start with a full inbox: the demo workspace, then its three
 * waiting kinds of run started again until {@code count} runs wait (approvals and input forms, by two people).
 * Arguments: a folder (made if missing; the store is {@code countersign.db} in it, its demo workspace beside it)
 * and the number of waiting runs (default 10,000). Then {@code packaging/measure-startup.sh -t waiting LAUNCHER
 * --store FOLDER/countersign.db} times the console to its inbox.
 */
public final class WaitingRunsStore {
    private static final List<String> AGENTS = List.of("release-notes-bot", "intake-form", "web-research");

    private WaitingRunsStore() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: WaitingRunsStore FOLDER [WAITING_RUNS]");
        }
        Path folder = Files.createDirectories(Path.of(args[0]));
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        Path file = folder.resolve("countersign.db");
        if (Files.exists(file)) {
            throw new IllegalArgumentException(file + " exists already; give an empty folder");
        }
        long started = System.nanoTime();
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
            List<Actor> people = List.of(runtime.user("maria"), runtime.user("jonas"));
            int waiting = runtime.runs().inbox(people.get(0)).size();
            for (int i = waiting; i < count; i++) {
                runtime.runs().start(people.get(i % 2), AGENTS.get(i % AGENTS.size()),
                        "Benchmark task " + i + " for " + AGENTS.get(i % AGENTS.size()), false);
            }
            System.out.printf("%s: %,d waiting runs, written in %d s%n", file,
                    runtime.runs().inbox(people.get(0)).size(), (System.nanoTime() - started) / 1_000_000_000);
        }
    }
}
