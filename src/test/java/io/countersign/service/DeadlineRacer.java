package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.store.StoreLocation;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A child process of {@link DeadlineRaceTest}: opens the store, prints "ready", waits for a line on standard input,
 * then either approves every card of the card list in its order as an operator ({@code human}), or sweeps the
 * overdue deadlines, which are in the same order ({@code deadline}); writes one line per run it answered:
 * {@code <run> <answer>}.
 *
 * <p>Arguments: the store, the ledger file, the card list ({@code <run> <digest>} per line), the result file, and
 * {@code human} or {@code deadline}.
 */
public final class DeadlineRacer {
    private DeadlineRacer() {
    }

    public static void main(String[] args) throws Exception {
        List<String> cards = Files.readAllLines(Path.of(args[2]));
        try (ServiceRig rig = ServiceRig.open(StoreLocation.resolve(args[0], Map.of()),
                List.of(new LedgerTool(Path.of(args[1]))), LedgerTool.scripts())) {
            System.out.println("ready");
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            List<String> answers = new ArrayList<>();
            if (args[4].equals("human")) {
                Actor olga = Actor.of("olga", Role.OPERATOR);
                for (String card : cards) {
                    String[] runAndDigest = card.split(" ");
                    DecisionResult result = rig.service.decide(olga, runAndDigest[0], runAndDigest[1],
                            List.of(Decision.CallVerdict.approve(0)));
                    answers.add(runAndDigest[0] + " " + (result instanceof DecisionResult.AlreadyDecided decided
                            ? "already-decided " + decided.decidedBy()
                            : result.getClass().getSimpleName().toLowerCase(Locale.ROOT)));
                }
            } else {
                for (DeadlineApplied applied : rig.service.applyDeadlines()) {
                    answers.add(applied.runId() + " " + applied.outcome().name().toLowerCase(Locale.ROOT));
                }
            }
            Files.write(Path.of(args[3]), answers, StandardCharsets.UTF_8);
        }
    }
}
