package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.WaitingRun;
import io.countersign.store.StoreLocation;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;

/**
 * The child process of {@link CrashRecoveryTest}. It opens the SQLite store and then, by mode:
 * <ul>
 *   <li>{@code standby}: prints "ready" and waits for a line on standard input (the test starts the next child
 *       while this one works, and lets it go once this one is dead); then recovers what its predecessors left
 *       and starts ledger runs and approves their cards until it is killed;</li>
 *   <li>{@code recover-only}: recovers and ends;</li>
 *   <li>{@code warm-up}: decides one card and recovers, to have the classes a child loads archived.</li>
 * </ul>
 * Each decision reported done is logged as {@code <run> <digest>} before the next begins; each decision carried
 * out at a restart as {@code <run> <result>}.
 *
 * <p>Arguments: the store file, the ledger file, the decision log, the recovery log, the mode.
 */
public final class CrashingDecider {
    /** Enough waiting cards that a kill often finds several runs at different points. */
    private static final int WAITING = 4;
    private static final Actor OPERATOR = Actor.of("olga", Role.OPERATOR);

    private CrashingDecider() {
    }

    public static void main(String[] args) throws Exception {
        Path decisions = Path.of(args[2]);
        Path recoveries = Path.of(args[3]);
        try (ServiceRig rig = ServiceRig.open(new StoreLocation.SqliteFile(Path.of(args[0])),
                List.of(new LedgerTool(Path.of(args[1]))), LedgerTool.scripts())) {
            switch (args[4]) {
                case "standby" -> {
                    System.out.println("ready");
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                    recover(rig.service, recoveries);
                    decideUntilKilled(rig.service, decisions);
                }
                case "recover-only" -> recover(rig.service, recoveries);
                case "warm-up" -> {
                    startAndDecide(rig.service, decisions);
                    recover(rig.service, recoveries);
                }
                default -> throw new IllegalArgumentException("unknown mode \"" + args[4] + "\"");
            }
        }
    }

    private static void recover(DefaultRunService service, Path recoveries) throws IOException {
        for (Resumption resumption : service.resumeInterrupted()) {
            if (!(resumption instanceof Resumption.CarriedOut carriedOut)) {
                throw new IllegalStateException("a recovered decision was not carried out: " + resumption);
            }
            append(recoveries, carriedOut.runId() + " " + carriedOut.result());
        }
    }

    private static void decideUntilKilled(RunService service, Path decisions) throws IOException {
        Random random = new Random();
        while (true) {
            List<WaitingRun> inbox = service.inbox(OPERATOR);
            if (inbox.size() < WAITING) {
                service.start(OPERATOR, LedgerTool.TWO_PAUSES, "Record the entries", false);
            } else {
                decide(service, inbox.get(random.nextInt(inbox.size())).runId(), decisions);
            }
        }
    }

    private static void startAndDecide(RunService service, Path decisions) throws IOException {
        decide(service, service.start(OPERATOR, LedgerTool.TWO_PAUSES, "Record the entries", false).runId(),
                decisions);
    }

    private static void decide(RunService service, String runId, Path decisions) throws IOException {
        RunCard card = service.card(OPERATOR, runId).orElseThrow();
        DecisionResult result = service.decide(OPERATOR, runId, card.digest(), card.pending().stream()
                .map(call -> Decision.CallVerdict.approve(call.index())).toList());
        if (!(result instanceof DecisionResult.Done)) {
            throw new IllegalStateException("the only decider got " + result);
        }
        append(decisions, runId + " " + card.digest());
    }

    private static void append(Path log, String line) throws IOException {
        Files.writeString(log, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
