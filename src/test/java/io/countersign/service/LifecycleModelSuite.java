package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import io.countersign.console.MovableClock;
import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.grant.GrantSpan;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.WithdrawableCaller;
import io.countersign.service.gateway.GatewayService;
import io.countersign.service.gateway.GatewaySession;
import io.countersign.service.gateway.HostAnswer;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.NetworkntSchemaValidator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model-based test of the decision lifecycle: random sequences of commands (starts, two persons deciding one card,
 * stale digests, a batch, a decision queued for a worker and the worker taking it, deadline sweeps on a clock the
 * test moves, extensions, an execution whose outcome is unknown and its settling, a host's call on a gateway run and
 * the host cancelling it, an approval that grants the ledger's call for an hour and the runs it then approves,
 * another process killed at a stage of carrying out an approval and this one recovering what it left) run through
 * the real services over a real store, and after every command the store and the ledger are checked against what the
 * lifecycle promises. Run on SQLite and PostgreSQL by the subclasses.
 *
 * <p>Hand-rolled rather than jqwik's {@code ActionSequence}: jqwik runs on its own engine, which leaves out the
 * JUnit extensions the stores need ({@code @TempDir}, the embedded PostgreSQL). A failing sequence is shrunk by
 * dropping commands while it still fails, and reported with its seed and its commands as Java.
 * {@code -Dlifecycle.sequences=N} runs more sequences, {@code -Dlifecycle.seed=S} replays one.
 */
abstract class LifecycleModelSuite {
    static final Actor OLGA = Actor.of("olga", Role.OPERATOR);
    static final Actor JONAS = Actor.of("jonas", Role.OPERATOR);
    private static final List<Actor> PERSONS = List.of(OLGA, JONAS);
    private static final String DEADLINES = "{\"decisionDeadline\": \"30m\", \"onDeadline\": \"deny\"}";
    private static final int COMMANDS = 14;
    private static final String STALE = "0".repeat(64);

    @TempDir
    Path folder;

    abstract StoreLocation freshLocation() throws Exception;

    /**
     * One step of a sequence; {@code run} picks among the runs started so far (a host's cancellation among the gateway
     * runs), {@code a} and {@code b} vary it.
     */
    record Command(Kind kind, int run, int a, int b) {
        @Override
        public String toString() {
            return "new Command(Kind." + kind + ", " + run + ", " + a + ", " + b + ")";
        }
    }

    enum Kind { START, DECIDE, RACE, BATCH, QUEUE, WORKER, SWEEP, EXTEND, VANISH, SETTLE, HOST, CANCEL, GRANT, KILL }

    @Test
    void randomSequencesKeepTheLifecyclesPromises() throws Exception {
        long seed = Long.getLong("lifecycle.seed", System.nanoTime());
        int sequences = Integer.getInteger("lifecycle.sequences", 4);
        Random random = new Random(seed);
        for (int i = 0; i < sequences; i++) {
            List<Command> commands = sequence(random);
            AssertionError failure = failureOf(commands);
            if (failure != null) {
                List<Command> shrunk = shrink(commands);
                fail("seed " + seed + ", sequence " + i + " fails; shrunk to " + shrunk + ": " + failureOf(shrunk)
                        .getMessage(), failure);
            }
        }
    }

    @Test
    void aSequenceOfEveryCommandKeepsThePromises() throws Exception {
        List<Command> commands = List.of(
                new Command(Kind.START, 0, 0, 0),
                new Command(Kind.VANISH, 0, 0, 0),
                new Command(Kind.DECIDE, 0, 0, 0), // approved; its execution's outcome is unknown
                new Command(Kind.SETTLE, 0, 0, 0), // the card again
                new Command(Kind.RACE, 0, 0, 0), // olga approves once more, jonas is told she decided
                new Command(Kind.START, 0, 0, 0),
                new Command(Kind.EXTEND, 1, 0, 0),
                new Command(Kind.START, 0, 0, 0),
                new Command(Kind.QUEUE, 2, 1, 1), // jonas denies, for a worker
                new Command(Kind.DECIDE, 1, 3, 0), // a stale digest
                new Command(Kind.BATCH, 0, 0, 0), // approves run 1
                new Command(Kind.WORKER, 0, 0, 0),
                new Command(Kind.START, 0, 0, 0),
                new Command(Kind.SWEEP, 0, 4, 0), // run 3's deadline denies it
                new Command(Kind.SETTLE, 3, 0, 1), // nothing to settle
                new Command(Kind.HOST, 0, 0, 0),
                new Command(Kind.HOST, 0, 0, 0),
                new Command(Kind.CANCEL, 1, 0, 0), // run 5's host withdraws its card
                new Command(Kind.DECIDE, 5, 0, 0), // refused: the host ended the card
                new Command(Kind.DECIDE, 4, 1, 0), // jonas approves; the gateway runs the call
                new Command(Kind.CANCEL, 0, 0, 0), // too late: the call was answered
                new Command(Kind.RACE, 4, 0, 1),
                new Command(Kind.START, 0, 0, 0),
                new Command(Kind.GRANT, 6, 1, 0), // jonas approves run 6 and grants its call for an hour
                new Command(Kind.START, 0, 0, 0), // run 7 runs on the grant
                new Command(Kind.DECIDE, 7, 0, 0), // refused: it never waited
                new Command(Kind.SWEEP, 0, 3, 0),
                new Command(Kind.SWEEP, 0, 3, 1), // the grant ended
                new Command(Kind.START, 0, 0, 0), // run 8 waits
                new Command(Kind.KILL, 8, 0, 1), // killed once its claim committed: flagged, nothing ran
                new Command(Kind.SETTLE, 8, 0, 0), // the card again
                new Command(Kind.DECIDE, 8, 1, 0), // jonas approves: the call runs once
                new Command(Kind.START, 0, 0, 0),
                new Command(Kind.KILL, 9, 0, 0), // killed before its claim: the card still waits
                new Command(Kind.KILL, 9, 0, 2), // killed after its call ran: flagged
                new Command(Kind.START, 0, 0, 0),
                new Command(Kind.KILL, 10, 1, 1)); // killed after its next state committed
        AssertionError failure = failureOf(commands);
        if (failure != null) {
            throw failure;
        }
    }

    private static List<Command> sequence(Random random) {
        List<Command> commands = new ArrayList<>(List.of(new Command(Kind.START, 0, 0, 0)));
        Kind[] kinds = Kind.values();
        while (commands.size() < COMMANDS) {
            commands.add(new Command(kinds[random.nextInt(kinds.length)], random.nextInt(8), random.nextInt(4),
                    random.nextInt(4)));
        }
        return commands;
    }

    /** Drops one command after another while the sequence still fails. */
    private List<Command> shrink(List<Command> failing) throws Exception {
        List<Command> shortest = failing;
        for (int i = shortest.size() - 1; i >= 0; i--) {
            List<Command> shorter = new ArrayList<>(shortest);
            shorter.remove(i);
            if (!shorter.isEmpty() && failureOf(shorter) != null) {
                shortest = shorter;
            }
        }
        return shortest;
    }

    /** Runs the commands on a fresh store; the first broken promise, or null. */
    private AssertionError failureOf(List<Command> commands) throws Exception {
        Path ledger = Files.createTempFile(folder, "ledger", ".txt");
        Files.delete(ledger);
        MovableClock clock = new MovableClock(Instant.parse("2026-12-06T09:00:00Z"));
        Set<String> vanished = new HashSet<>();
        // a gateway's driver executes its runs' calls on its own thread
        Set<String> hosted = ConcurrentHashMap.newKeySet();
        boolean[] armed = {false};
        // armed by a VANISH command: the next execution of an agent's run, its line written, reports its outcome
        // unknown
        LedgerTool tool = LedgerTool.vanishing(ledger, runId -> {
            if (hosted.contains(runId)) {
                return false;
            }
            boolean vanishes = armed[0];
            armed[0] = false;
            return vanishes && vanished.add(runId);
        });
        StoreLocation location = freshLocation();
        try (DeadlineSuite.Rig rig = DeadlineSuite.Rig.open(location, tool, clock, DEADLINES);
             Model model = new Model(rig, location, tool, ledger, clock, vanished, hosted, () -> armed[0] = true)) {
            for (Command command : commands) {
                try {
                    model.apply(command);
                    model.check();
                } catch (AssertionError broken) {
                    return new AssertionError("after " + command + ": " + broken.getMessage(), broken);
                }
            }
            return null;
        }
    }

    /** How a process dies in this one: nothing of it catches this, and it does nothing after. */
    private static final class Killed extends Error {
        Killed() {
            super("killed", null, false, false);
        }
    }

    /** A host's call on a gateway run: the host's connection, the caller it may withdraw, the answer it waits for. */
    private record HostCall(GatewaySession session, AutoCloseable feed, WithdrawableCaller caller,
                            CompletableFuture<HostAnswer> answer) {
    }

    /** What the commands did, as the test tracks it, beside the real services. */
    private static final class Model implements AutoCloseable {
        private static final String PROFILE = "desk";
        private final DeadlineSuite.Rig rig;
        private final StoreLocation location;
        private final GatewayService gateway;
        private final HostRunDecisions.Profiled desk;
        /** The gateway runs, each waiting on its host's one call or carried on past it. */
        private final Map<String, HostCall> hosts = new LinkedHashMap<>();
        private final Set<String> hosted;
        private final DefaultExecutionService execution;
        private final BatchDecisions batch;
        private final Path ledger;
        private final MovableClock clock;
        private final List<String> runs = new ArrayList<>();
        /** The digest each run paused with: a decision read on it after the run moved on is a late one. */
        private final Map<String, String> digests = new HashMap<>();
        /** How each run's card ended: a decision (approved or not) or its deadline's fallback. */
        private final Map<String, Ending> endings = new HashMap<>();
        /** The runs whose decision waits for a worker. */
        private final Set<String> queued = new HashSet<>();
        /** The runs whose last execution reported its outcome unknown, until a person settles them. */
        private final Set<String> vanished;
        private final Runnable armVanishing;
        private final Set<String> settledAsFailed = new HashSet<>();
        /** How many approvals won on each run: each lets its call execute once. */
        private final Map<String, Integer> approvals = new HashMap<>();
        private final Map<String, RunStatus> lastStatus = new HashMap<>();
        /** Approvals that won and whose call never started: their process was killed before it. */
        private final Map<String, Integer> neverStarted = new HashMap<>();
        /** Until when the last grant a person made approves the ledger agent's call; null before any. */
        private Instant grantedUntil;

        Model(DeadlineSuite.Rig rig, StoreLocation location, LedgerTool tool, Path ledger, MovableClock clock,
              Set<String> vanished, Set<String> hosted, Runnable armVanishing) {
            this.rig = rig;
            this.location = location;
            this.hosted = hosted;
            this.ledger = ledger;
            this.clock = clock;
            this.vanished = vanished;
            this.armVanishing = armVanishing;
            this.execution = new DefaultExecutionService(rig.service(), rig.store().runs(), rig.store().runs(),
                    rig.store().users(), rig.store().changes(), clock, IdGenerator.random());
            this.batch = new BatchDecisions(rig.service());
            Store store = rig.store();
            new GatewayProfiles(store.configurations(), store.servers(), store.users()).add(DeadlineSuite.ADA,
                    PROFILE, List.of(), List.of(LedgerTool.NAME), "local", false, null, null);
            this.gateway = new GatewayService(store, ToolRegistry.of(tool), new NetworkntSchemaValidator(),
                    InvocationRules.none(), ServerConnections.NONE, RunTelemetry.NONE, clock, IdGenerator.random(),
                    Locale.ENGLISH);
            this.desk = gateway.profile(OLGA, PROFILE);
        }

        enum Ending { APPROVED, DENIED, EXPIRED, CANCELLED }

        void apply(Command command) {
            if (command.kind() == Kind.HOST) {
                connectHost();
                return;
            }
            if (command.kind() == Kind.START || runs.isEmpty()) {
                start();
                return;
            }
            String runId = runs.get(command.run() % runs.size());
            Actor person = PERSONS.get(command.a() % 2);
            boolean approve = command.b() % 2 == 0;
            switch (command.kind()) {
                case DECIDE -> decided(runId, approve, rig.service().decide(person, runId,
                        command.a() == 3 ? STALE : digests.get(runId), verdicts(approve)));
                case RACE -> {
                    // both read the same card, then decide in turn: exactly one wins
                    String digest = digests.get(runId);
                    boolean waited = !endings.containsKey(runId);
                    DecisionResult first = rig.service().decide(OLGA, runId, digest, verdicts(approve));
                    decided(runId, approve, first);
                    DecisionResult second = rig.service().decide(JONAS, runId, digest, verdicts(!approve));
                    decided(runId, !approve, second);
                    if (waited) {
                        assertThat(first).isInstanceOf(DecisionResult.Done.class);
                        assertThat(second).isInstanceOf(DecisionResult.AlreadyDecided.class)
                                .extracting(result -> ((DecisionResult.AlreadyDecided) result).decidedBy())
                                .isEqualTo("olga");
                    }
                }
                case BATCH -> {
                    BatchPlan plan = batch.plan(person, batch.matching(person, LedgerTool.ONE_PAUSE, null));
                    BatchResult result = batch.decide(person, plan, approve, approve ? null : "not today");
                    for (BatchResult.Outcome outcome : result.outcomes()) {
                        assertThat(outcome.failure()).as("batch failure for %s", outcome.runId()).isNull();
                        decided(outcome.runId(), approve, outcome.result());
                    }
                }
                case QUEUE -> {
                    DecisionResult result = execution.decideForWorker(person, runId, digests.get(runId),
                            verdicts(approve));
                    // a gateway run's decision is handed back to its gateway, never queued
                    if (result instanceof DecisionResult.Done && !hosts.containsKey(runId)) {
                        queued.add(runId);
                    }
                    decided(runId, approve, result);
                }
                case WORKER -> {
                    execution.worker(OLGA, RunWorker.Options.defaults().withDrain(true), progress -> { }).run();
                    queued.clear();
                }
                case SWEEP -> {
                    clock.advance(Duration.ofMinutes(10L * command.a() + command.b()));
                    for (DeadlineApplied applied : rig.service().applyDeadlines()) {
                        if (applied.outcome() == DeadlineApplied.Outcome.DENIED) {
                            assertThat(endings.put(applied.runId(), Ending.EXPIRED))
                                    .as("a second ending of run %s by its deadline", applied.runId()).isNull();
                        }
                    }
                }
                case EXTEND -> {
                    DeadlineExtension extension = rig.service().extend(person, runId);
                    if (extension instanceof DeadlineExtension.Refused refused) {
                        assertThat(refused.reason()).as("why the extension was refused").isNotBlank();
                    }
                }
                case VANISH -> armVanishing.run();
                case SETTLE -> {
                    boolean retry = command.b() % 2 == 0;
                    DecisionResult result;
                    try {
                        result = execution.settleUnknownOutcome(person, runId, retry);
                    } catch (IllegalArgumentException neverPaused) {
                        // a flagged call that ran without a card (under a grant) has no card to show again: the
                        // run stays flagged, to be settled as failed
                        assertThat(retry).as("only showing the card again is refused").isTrue();
                        assertThat(vanished).as("run %s is flagged", runId).contains(runId);
                        assertThat(neverPaused).hasMessage("run " + runId + " never paused, so there is no card to"
                                + " decide again; settle it as failed and start it anew");
                        return;
                    }
                    if (!vanished.remove(runId)) {
                        assertThat(result).as("settling run %s, which is not flagged", runId)
                                .isInstanceOf(DecisionResult.NotWaiting.class);
                        decided(runId, retry, result);
                    } else if (retry) {
                        // the card again, on the same pause: a new decision may win it
                        endings.remove(runId);
                        digests.put(runId, rig.service().card(person, runId).orElseThrow().digest());
                    } else {
                        settledAsFailed.add(runId);
                    }
                }
                case GRANT -> {
                    // a gateway's calls are the host's, which no grant of the ledger agent reaches
                    if (!hosts.containsKey(runId)) {
                        DecisionResult result = rig.service().decide(person, runId, digests.get(runId),
                                verdicts(true), Allowance.sameArguments(GrantSpan.ONE_HOUR));
                        decided(runId, true, result);
                        if (result instanceof DecisionResult.Done) {
                            grantedUntil = clock.instant().plus(Duration.ofHours(1));
                        }
                    }
                }
                case KILL -> killedWhileApproving(runId, person,
                        HaltingRuns.Step.values()[(4 * command.a() + command.b()) % HaltingRuns.Step.values().length]);
                case CANCEL -> {
                    if (!hosts.isEmpty()) {
                        cancel(List.copyOf(hosts.keySet()).get(command.run() % hosts.size()));
                    }
                }
                case START, HOST -> throw new IllegalStateException("started above");
            }
        }

        /**
         * Starts a run of the ledger agent: its call waits as a card, unless a grant made within the hour approves
         * it, and then it executes once at once.
         */
        private void start() {
            String runId = rig.startLedger();
            runs.add(runId);
            Optional<RunCard> card = rig.service().card(OLGA, runId);
            Instant now = clock.instant();
            if (card.isPresent()) {
                assertThat(grantedUntil == null || !now.isBefore(grantedUntil))
                        .as("run %s waits though a grant until %s approves its call", runId, grantedUntil).isTrue();
                digests.put(runId, card.get().digest());
                return;
            }
            assertThat(grantedUntil).as("run %s did not wait, with no grant made", runId).isNotNull();
            assertThat(now.isAfter(grantedUntil)).as("run %s did not wait, its grant ended at %s", runId, grantedUntil)
                    .isFalse();
            endings.put(runId, Ending.APPROVED);
            approvals.merge(runId, 1, Integer::sum);
            // it never paused: a person's decision on it can only be one with a digest of no card
            digests.put(runId, STALE);
        }

        /**
         * Another process approves the waiting card of an agent's run and dies at the step, its store left as a
         * killed process leaves it; then this process recovers what it left. The decision is kept from the claim on;
         * a call whose outcome the death made unknown is flagged for a person, and nothing runs twice.
         */
        private void killedWhileApproving(String runId, Actor person, HaltingRuns.Step step) {
            if (hosts.containsKey(runId) || endings.containsKey(runId)) {
                return;
            }
            Store other = Store.open(location);
            boolean died = false;
            try {
                HaltingRuns halting = new HaltingRuns(other.runs(), () -> {
                    throw new Killed();
                });
                DefaultRunService service = SteppedDecider.halting(other, halting, new LedgerTool(ledger,
                        () -> halting.at(HaltingRuns.Step.EXECUTED, null)), clock);
                halting.arm(runId, step);
                decided(runId, true, service.decide(person, runId, digests.get(runId), verdicts(true)));
            } catch (Killed killed) {
                died = true;
            } finally {
                // a killed process leaves nothing but its rows: the store no longer counts it as driving its runs
                other.close();
            }
            assertThat(died).as("the approval of run %s halted at %s", runId, step).isTrue();
            for (Resumption resumption : rig.service().resumeInterrupted()) {
                assertThat(resumption).as("what recovery did with run %s", resumption.runId())
                        .isInstanceOfSatisfying(Resumption.CarriedOut.class, carriedOut ->
                                assertThat(carriedOut.result()).isInstanceOf(DecisionResult.Done.class));
            }
            if (step == HaltingRuns.Step.BEFORE_CLAIM) {
                return;
            }
            endings.put(runId, Ending.APPROVED);
            approvals.merge(runId, 1, Integer::sum);
            if (step == HaltingRuns.Step.CLAIMED) {
                neverStarted.merge(runId, 1, Integer::sum);
            }
            if (step != HaltingRuns.Step.NEXT_STATE) {
                vanished.add(runId);
            }
        }

        /** A host connects to the gateway and calls the ledger, which waits as a card. */
        private void connectHost() {
            GatewaySession session = gateway.connect(desk, "model host");
            hosted.add(session.runId());
            WithdrawableCaller caller = new WithdrawableCaller();
            // the gateway's driver looks for a decision to carry out whenever the store's runs change
            AutoCloseable feed = gateway.onRunChange(session::poke);
            hosts.put(session.runId(), new HostCall(session, feed, caller, session.call(LedgerTool.NAME,
                    Json.mapper().createObjectNode().put("entry", "only"), caller)));
            awaitCard(session.runId());
            runs.add(session.runId());
            digests.put(session.runId(), rig.service().card(OLGA, session.runId()).orElseThrow().digest());
        }

        /** The gateway's driver pauses the run on its own thread: the card shows once it is stored. */
        private void awaitCard(String runId) {
            for (int tries = 0; tries < 6000; tries++) {
                if (rig.run(runId).status() == RunStatus.WAITING_FOR_APPROVAL) {
                    return;
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            fail("the host's call on run " + runId + " never waited as a card");
        }

        /**
         * The host of a gateway run cancels its call, as the gateway does on {@code notifications/cancelled}: a card
         * still waiting is withdrawn, and nothing executes; a call already answered is not touched.
         */
        private void cancel(String runId) {
            HostCall host = hosts.get(runId);
            boolean waited = !endings.containsKey(runId);
            host.caller().withdraw();
            host.session().withdraw(host.caller());
            if (waited) {
                endings.put(runId, Ending.CANCELLED);
            }
        }

        /** The host's answer, once the gateway carried out the card's ending. */
        private static HostAnswer answer(HostCall host) {
            try {
                return host.answer().get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("the host had no answer: " + e, e);
            }
        }

        @Override
        public void close() throws Exception {
            for (HostCall host : hosts.values()) {
                host.feed().close();
                host.session().close();
            }
        }

        private static List<Decision.CallVerdict> verdicts(boolean approve) {
            return List.of(approve ? Decision.CallVerdict.approve(0)
                    : Decision.CallVerdict.deny(0, "not today"));
        }

        /** A decision's result: a win is the card's only ending, a refusal names its reason. */
        private void decided(String runId, boolean approve, DecisionResult result) {
            if (result instanceof DecisionResult.Done) {
                assertThat(endings.put(runId, approve ? Ending.APPROVED : Ending.DENIED))
                        .as("a second decision won run %s's one pause", runId).isNull();
                approvals.merge(runId, approve ? 1 : 0, Integer::sum);
            } else if (result instanceof DecisionResult.AlreadyDecided already) {
                assertThat(already.decidedBy()).as("who decided first").isNotBlank();
                assertThat(endings).as("a refusal for a decision nobody took").containsKey(runId);
                if (endings.get(runId) == Ending.CANCELLED) {
                    assertThat(already.decidedBy()).as("who ended run %s's card", runId)
                            .isEqualTo(DecisionResult.AlreadyDecided.HOST_ACTOR);
                }
            } else if (result instanceof DecisionResult.Stale stale) {
                assertThat(stale.currentDigest()).as("the card's digest now").isNotBlank();
            } else if (result instanceof DecisionResult.NotWaiting notWaiting) {
                assertThat(notWaiting.status()).as("where the run stands").isNotNull();
            } else {
                fail("unexpected answer " + result);
            }
        }

        /** The promises, after every command. */
        void check() throws Exception {
            for (String runId : runs) {
                Ending ending = endings.get(runId);
                HostCall host = hosts.get(runId);
                if (host != null && ending != null) {
                    // the gateway carries the card's ending out on its own thread: the host hears when it did
                    HostAnswer answer = answer(host);
                    if (ending == Ending.CANCELLED) {
                        assertThat(answer.text()).as("what the host of run %s heard", runId)
                                .startsWith("Error: declined by host");
                    }
                }
                StoredRun run = rig.run(runId);
                long executed = LedgerTool.executions(ledger).getOrDefault(runId + " only", 0L);
                RunStatus expected = host != null && ending != null ? RunStatus.RUNNING
                        : settledAsFailed.contains(runId) ? RunStatus.FAILED
                        : vanished.contains(runId) ? RunStatus.OUTCOME_UNKNOWN
                        : ending == null ? RunStatus.WAITING_FOR_APPROVAL
                        : queued.contains(runId) ? RunStatus.QUEUED : RunStatus.COMPLETED;
                assertThat(run.status()).as("status of run %s, ended by %s", runId, ending).isEqualTo(expected);
                int carriedOut = approvals.getOrDefault(runId, 0) - neverStarted.getOrDefault(runId, 0)
                        - (ending == Ending.APPROVED && queued.contains(runId) ? 1 : 0);
                assertThat(executed).as("executions of run %s, ended by %s", runId, ending).isEqualTo(carriedOut);
                RunStatus before = lastStatus.put(runId, run.status());
                if (before != null) {
                    assertThat(reachable(before)).as("statuses the lifecycle leads to from %s", before)
                            .contains(run.status());
                }
            }
        }
    }

    private static final Map<RunStatus, Set<RunStatus>> REACHABLE = reachableStatuses();

    private static Set<RunStatus> reachable(RunStatus from) {
        return REACHABLE.getOrDefault(from, Set.of());
    }

    /** From each status, the statuses the table's transitions lead to, in any number of steps (none included). */
    private static Map<RunStatus, Set<RunStatus>> reachableStatuses() {
        List<RunLifecycle.Transition> table = RunLifecycle.table().transitions();
        Map<RunStatus, Set<RunStatus>> reachable = new EnumMap<>(RunStatus.class);
        for (RunLifecycle.State start : RunLifecycle.State.values()) {
            start.status().ifPresent(status -> {
                Set<RunLifecycle.State> seen = EnumSet.of(start);
                List<RunLifecycle.State> next = new ArrayList<>(seen);
                while (!next.isEmpty()) {
                    RunLifecycle.State from = next.remove(next.size() - 1);
                    table.stream().filter(t -> t.from() == from).map(RunLifecycle.Transition::to)
                            .filter(seen::add).forEach(next::add);
                }
                reachable.computeIfAbsent(status, s -> EnumSet.noneOf(RunStatus.class)).addAll(seen.stream()
                        .flatMap(state -> state.status().stream()).collect(Collectors.toSet()));
            });
        }
        return reachable;
    }
}
