package io.countersign.bench;

import io.countersign.engine.Actor;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.WhatIf;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A rule's what-if over the calls recorded in a SQLite store: {@code CALLS} calls in runs of {@code PER_RUN}
 * deletes each (every run waits on its card, so the calls are in the stored paused states), half of them under
 * releases/. Prints the median of 7 what-ifs after 3 untimed, and the count it found. The goal is under 1 s for
 * 10,000 calls.
 *
 * <p>{@code mvn -B -Pbench -DskipTests verify -Dbench.main=io.countersign.bench.WhatIfBenchmark
 * -Dbench.args="10000 100"}
 */
public final class WhatIfBenchmark {
    private WhatIfBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int perRun = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        Path folder = Files.createTempDirectory("countersign-what-if");
        Path workspace = Files.createDirectories(folder.resolve("ws"));
        StringBuilder turn = new StringBuilder("{\"turns\": [{\"content\": \"tidy\", \"toolCalls\": [");
        for (int i = 0; i < perRun; i++) {
            turn.append(i == 0 ? "" : ",").append("{\"id\": \"c").append(i).append("\", \"name\": \"fs_delete\","
                    + " \"arguments\": {\"path\": \"").append(i % 2 == 0 ? "releases/" : "drafts/").append("f")
                    .append(i).append(".zip\"}}");
        }
        turn.append("], \"usage\": {\"prompt\": 1, \"completion\": 1}}]}");
        Path script = folder.resolve("bulk.json");
        Files.writeString(script, turn);
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(
                folder.resolve("countersign.db")))) {
            Actor admin = runtime.localUser();
            ModelConfiguration model = new ModelConfiguration("bulk-script", "scripted", "bulk", script.toString(),
                    TrustZone.LOCAL, null, null, null, null);
            runtime.store().configurations().saveModel(model);
            runtime.store().configurations().saveAgent(StoredAgentConfiguration.of(AgentConfiguration.of("bulk",
                    model, List.of("files")).withWorkspace(workspace.toString()), "[]"));
            long setUp = System.nanoTime();
            for (int run = 0; run < calls / perRun; run++) {
                runtime.runs().start(admin, "bulk", "tidy", false);
            }
            System.out.printf(Locale.ROOT, "recorded %d calls in %d runs in %.1f s%n", calls, calls / perRun,
                    (System.nanoTime() - setUp) / 1e9);
            DeclarativeRule rule = new DeclarativeRule("releases.keep",
                    "tool == 'fs_delete' && target.id.startsWith('releases/')",
                    new DeclarativeRule.Action.Deny("release_kept", "Releases are kept.", null),
                    DeclarativeRule.Scope.ALL, true, "");
            Instant since = Instant.now().minusSeconds(86_400);
            List<Double> times = new ArrayList<>();
            WhatIf last = null;
            for (int i = 0; i < 10; i++) {
                long start = System.nanoTime();
                last = runtime.rules().whatIf(admin, rule, since);
                if (i >= 3) {
                    times.add((System.nanoTime() - start) / 1e6);
                }
            }
            double[] sorted = times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "what-if over %d recorded calls: %d matched; median %.0f ms (%s)%n",
                    last.inScope(), last.matched(), sorted[sorted.length / 2], Arrays.toString(sorted));
            long read = System.nanoTime();
            int found = runtime.store().runs().since(since, 200_000).size();
            System.out.printf(Locale.ROOT, "of which reading the %d calls from the store: %.0f ms%n", found,
                    (System.nanoTime() - read) / 1e6);
        }
    }
}
