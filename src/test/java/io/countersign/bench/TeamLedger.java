package io.countersign.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the ledger server wrote: one line per execution of its tool, the decided run's id (the decider's edit of the
 * call) and the wall-clock microsecond the call reached the server. Every worker's server appends to the same file.
 */
record TeamLedger(Map<String, Integer> executions, Map<String, Long> firstStart) {

    static TeamLedger read(Path file) throws IOException {
        Map<String, Integer> executions = new HashMap<>();
        Map<String, Long> firstStart = new HashMap<>();
        List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
        for (String line : lines) {
            int tab = line.indexOf('\t');
            String key = line.substring(0, tab);
            executions.merge(key, 1, Integer::sum);
            firstStart.merge(key, Long.parseLong(line.substring(tab + 1)), Math::min);
        }
        return new TeamLedger(Map.copyOf(executions), Map.copyOf(firstStart));
    }

    /** The calls that ran more than once, with how often. */
    Map<String, Integer> repeated() {
        Map<String, Integer> repeated = new HashMap<>();
        executions.forEach((key, count) -> {
            if (count > 1) {
                repeated.put(key, count);
            }
        });
        return repeated;
    }

    /** How many calls reached the server within {@code [from, to)}, in wall-clock microseconds. */
    long startedBetween(long from, long to) {
        return firstStart.values().stream().filter(at -> at >= from && at < to).count();
    }
}
