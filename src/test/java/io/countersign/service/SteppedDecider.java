package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.NetworkntSchemaValidator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;

/**
 * The child process of {@link CrashStepsTest}. It opens the SQLite store and then, by mode:
 * <ul>
 *   <li>{@code standby}: prints "ready" and waits for a line {@code go <step>} on standard input; then recovers
 *       what its predecessors left, starts a single-entry ledger run, and approves its card, halting at the step
 *       ({@link HaltingRuns}) to be killed there;</li>
 *   <li>{@code recover-only}: recovers and ends;</li>
 *   <li>{@code warm-up}: starts and approves one run and recovers, to have the classes a child loads archived.</li>
 * </ul>
 * Arguments: the store file, the ledger file, the mode.
 */
public final class SteppedDecider {
    private static final Actor OPERATOR = Actor.of("olga", Role.OPERATOR);

    private SteppedDecider() {
    }

    public static void main(String[] args) throws Exception {
        try (Store store = Store.open(new StoreLocation.SqliteFile(Path.of(args[0])))) {
            ServiceRig.operators(store, OPERATOR.name());
            HaltingRuns runs = new HaltingRuns(store.runs());
            LedgerTool tool = new LedgerTool(Path.of(args[1]), () -> runs.at(HaltingRuns.Step.EXECUTED, null));
            ServiceRig.saveAgents(store, List.of(tool), LedgerTool.scripts());
            DefaultRunService service = halting(store, runs, tool, Clock.systemUTC());
            switch (args[2]) {
                case "standby" -> {
                    System.out.println("ready");
                    String go = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                            .readLine();
                    recover(service);
                    decide(service, runs, HaltingRuns.Step.valueOf(go.substring("go ".length())));
                    throw new IllegalStateException("the decision went past its halt");
                }
                case "recover-only" -> recover(service);
                case "warm-up" -> {
                    decide(service, runs, null);
                    recover(service);
                }
                default -> throw new IllegalArgumentException("unknown mode \"" + args[2] + "\"");
            }
        }
    }

    /** The run service over the store whose runs halt, with the ledger agents' scripts. */
    static DefaultRunService halting(Store store, HaltingRuns runs, LedgerTool tool, Clock clock) {
        ToolRegistry registry = ToolRegistry.of(tool);
        ToolLoop loop = ToolLoop.builder(registry, ScriptedChatModel.byModel(LedgerTool.scripts()))
                .schemas(new NetworkntSchemaValidator())
                .settings(store.settings())
                .invocationPolicies(InvocationRules.none().invocationPolicy(),
                        InvocationRules.none().preApprovalPolicy())
                .events(store.events())
                .clock(clock)
                .build();
        return new DefaultRunService(runs, store.runs(), new AgentDirectory(store.configurations()), loop, registry,
                store.events(), listener -> () -> { }, store.servers(), ServerConnections.NONE, store.users(), clock,
                IdGenerator.random(), Locale.ENGLISH, new AskedInputs(clock, IdGenerator.random(), loop.schemas()),
                null, store.approvals());
    }

    private static void recover(DefaultRunService service) {
        for (Resumption resumption : service.resumeInterrupted()) {
            if (!(resumption instanceof Resumption.CarriedOut carriedOut)
                    || !(carriedOut.result() instanceof DecisionResult.Done)) {
                throw new IllegalStateException("a recovered decision was not carried out: " + resumption);
            }
        }
    }

    private static void decide(DefaultRunService service, HaltingRuns runs, HaltingRuns.Step step) {
        String runId = service.start(OPERATOR, LedgerTool.ONE_PAUSE, "Keep a record", false).runId();
        RunCard card = service.card(OPERATOR, runId).orElseThrow();
        if (step != null) {
            runs.arm(runId, step);
        }
        DecisionResult result = service.decide(OPERATOR, runId, card.digest(),
                List.of(Decision.CallVerdict.approve(0)));
        if (!(result instanceof DecisionResult.Done)) {
            throw new IllegalStateException("the only decider got " + result);
        }
    }
}
