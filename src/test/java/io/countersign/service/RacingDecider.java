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
 * The child process of {@link ConcurrentDecisionTest}: opens the store, prints "ready", waits for a line on
 * standard input, then approves every card of the card list, in its order, as the named operator, and writes
 * one line per card: {@code <run> <answer> [<who decided>]}.
 *
 * <p>Arguments: the store (a file or a {@code jdbc:postgresql://} URL), the ledger file, the card list
 * ({@code <run> <digest>} per line), the result file, the operator's name.
 */
public final class RacingDecider {
    private RacingDecider() {
    }

    public static void main(String[] args) throws Exception {
        Actor operator = Actor.of(args[4], Role.OPERATOR);
        List<String> cards = Files.readAllLines(Path.of(args[2]));
        try (ServiceRig rig = ServiceRig.open(StoreLocation.resolve(args[0], Map.of()),
                List.of(new LedgerTool(Path.of(args[1]))), LedgerTool.scripts())) {
            ServiceRig.operators(rig.store, operator.name());
            System.out.println("ready");
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            List<String> answers = new ArrayList<>();
            for (String card : cards) {
                String[] runAndDigest = card.split(" ");
                DecisionResult result = rig.service.decide(operator, runAndDigest[0], runAndDigest[1],
                        List.of(Decision.CallVerdict.approve(0)));
                answers.add(runAndDigest[0] + " " + answer(result));
            }
            Files.write(Path.of(args[3]), answers, StandardCharsets.UTF_8);
        }
    }

    private static String answer(DecisionResult result) {
        if (result instanceof DecisionResult.AlreadyDecided decided) {
            return "already-decided " + decided.decidedBy();
        }
        return result.getClass().getSimpleName().toLowerCase(Locale.ROOT);
    }
}
