package io.countersign.service;

import io.countersign.engine.port.WaitingRun;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.MovableClock;
import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.Role;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.PersonWait;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.StretchStart;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.NetworkntSchemaValidator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decision deadlines over a real store, with a clock the test moves: each fallback, escalation, Extend, and the
 * sweep a process runs when it starts. Run on SQLite and PostgreSQL by the subclasses.
 */
abstract class DeadlineSuite {
    static final Instant START = Instant.parse("2026-12-02T09:00:00Z");
    static final Actor OLGA = Actor.of("olga", Role.OPERATOR);
    static final Actor ADA = Actor.of("ada", Role.ADMIN);

    @TempDir
    Path folder;

    final MovableClock clock = new MovableClock(START);
    /** The waits for a person the service told its telemetry of. */
    final List<PersonWait> waits = new CopyOnWriteArrayList<>();
    private final RunTelemetry telemetry = new RunTelemetry() {
        @Override
        public Stretch stretch(StretchStart start) {
            return Stretch.NONE;
        }

        @Override
        public void recorded(GovernanceEvent event) {
        }

        @Override
        public void waited(PersonWait wait) {
            waits.add(wait);
        }
    };

    abstract StoreLocation freshLocation() throws Exception;

    /** The run service over a store whose ledger agent has these deadline fields, at the test's clock. */
    Rig rig(String deadlineFields) throws Exception {
        return rig(freshLocation(), deadlineFields);
    }

    Rig rig(StoreLocation location, String deadlineFields) {
        return Rig.open(location, new LedgerTool(folder.resolve("ledger.txt")), clock, deadlineFields, telemetry);
    }

    record Rig(Store store, DefaultRunService service) implements AutoCloseable {
        /** As the other, telling no telemetry. */
        static Rig open(StoreLocation location, LedgerTool ledger, Clock clock, String deadlineFields) {
            return open(location, ledger, clock, deadlineFields, RunTelemetry.NONE);
        }

        /**
         * The run service over a store at the clock, whose ledger agent (with this ledger) and form agent have these
         * deadline fields; olga and jonas are operators, ada an admin, sam a supervisor. Waits for a person are told
         * to the telemetry.
         */
        static Rig open(StoreLocation location, LedgerTool ledger, Clock clock, String deadlineFields,
                        RunTelemetry telemetry) {
            List<Tool> tools = List.of(ledger, new NoteFormTool());
            Map<String, List<io.countersign.engine.chat.AssistantTurn>> scripts = Map.of(
                    LedgerTool.ONE_PAUSE, LedgerTool.scripts().get(LedgerTool.ONE_PAUSE),
                    NoteFormTool.AGENT, NoteFormTool.script());
            Store store = Store.open(location);
            ServiceRig.saveAgents(store, tools, scripts);
            ServiceRig.operators(store, "olga", "jonas");
            if (store.users().find("ada").isEmpty()) {
                store.users().add("ada", Set.of(Role.ADMIN), Actor.of("test-setup"));
                store.users().add("sam", Set.of(Role.SUPERVISOR), Actor.of("test-setup"));
            }
            DecisionDeadlines deadlines;
            try {
                deadlines = DecisionDeadlines.read(Json.mapper().readTree(deadlineFields));
            } catch (Exception e) {
                throw new IllegalArgumentException(e);
            }
            for (String agent : scripts.keySet()) {
                StoredAgentConfiguration stored = store.configurations().findAgent(agent).orElseThrow();
                store.configurations().saveAgent(new StoredAgentConfiguration(stored.name(), stored.systemPrompt(),
                        stored.modelName(), stored.toolGroups(), stored.allowedTools(), stored.workspace(),
                        stored.toolCallPolicies(), stored.maxRounds(), stored.fourEyes(), deadlines));
            }
            return new Rig(store, DefaultRunService.overStore(store, ToolRegistry.of(tools.toArray(Tool[]::new)),
                    new NetworkntSchemaValidator(), ScriptedChatModel.byModel(scripts), InvocationRules.none(),
                    ServerConnections.NONE, telemetry, clock, IdGenerator.random(), Locale.ENGLISH));
        }

        String startLedger() {
            return service.start(OLGA, LedgerTool.ONE_PAUSE, "Record the entry", false).runId();
        }

        StoredRun run(String runId) {
            return store.runs().find(runId).orElseThrow();
        }

        List<String> eventTypes(String runId) {
            return store.events().page(EventFilter.all(), PageRequest.first(1000)).events().stream().filter(e -> runId.equals(e.runId()))
                    .map(e -> e.type().code()).toList();
        }

        GovernanceEvent event(String runId, String type) {
            return store.events().page(EventFilter.all(), PageRequest.first(1000)).events().stream().filter(e -> runId.equals(e.runId())
                    && e.type().code().equals(type)).findFirst().orElseThrow();
        }

        @Override
        public void close() {
            store.close();
        }
    }

    @Test
    void aPausedRunStoresItsDeadlineFromItsAgent() throws Exception {
        try (Rig rig = rig("{\"decisionDeadline\": \"30m\"}")) {
            String run = rig.startLedger();
            RunDeadline deadline = rig.service().deadline(OLGA, run).orElseThrow();
            assertThat(deadline.due()).isEqualTo(START.plus(Duration.ofMinutes(30)));
            assertThat(deadline.action().code()).isEqualTo("deny");
            assertThat(rig.service().inbox(OLGA)).singleElement().satisfies(line ->
                    assertThat(line.deadline()).isEqualTo(deadline));
        }
    }

    @Test
    void noFallbackBeforeTheDeadline() throws Exception {
        try (Rig rig = rig("{\"decisionDeadline\": \"30m\"}")) {
            String run = rig.startLedger();
            clock.advance(Duration.ofMinutes(29));
            assertThat(rig.service().applyDeadlines()).isEmpty();
            assertThat(rig.run(run).status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        }
    }

    @Test
    void denyDeclinesTheCallsAndTheModelContinuesFromTheRefusal() throws Exception {
        try (Rig rig = rig("{\"decisionDeadline\": \"90s\", \"onDeadline\": \"deny\"}")) {
            String run = rig.startLedger();
            clock.advance(Duration.ofSeconds(90));
            assertThat(rig.service().applyDeadlines()).containsExactly(
                    new DeadlineApplied(run, DeadlineApplied.Outcome.DENIED, null));
            StoredRun after = rig.run(run);
            assertThat(after.status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(after.transcript().toString()).contains(DecisionDeadlines.DENIAL_REASON)
                    .contains("Recorded.");
            assertThat(LedgerTool.executions(folder.resolve("ledger.txt"))).isEmpty();
            assertThat(rig.eventTypes(run)).containsExactly("approval_expired");
            GovernanceEvent expired = rig.event(run, "approval_expired");
            assertThat(expired.actor()).isEqualTo("deadline");
            assertThat(expired.reasonCode()).isEqualTo("deny");
            assertThat(rig.store().runs().decisionNear(run, "deadline", clock.instant())).hasValueSatisfying(
                    decision -> assertThat(decision.summary()).isEqualTo("approved 0, denied 1"));
            assertThat(rig.service().applyDeadlines()).isEmpty();
            assertThat(waits).containsExactly(new PersonWait(run, LedgerTool.ONE_PAUSE, "expired", "deadline", 0,
                    START.plusSeconds(90), "deny", START, START.plusSeconds(90)));
        }
    }

    @Test
    void cancelEndsTheRunAsCancelled() throws Exception {
        try (Rig rig = rig("{\"decisionDeadline\": \"30m\", \"onDeadline\": \"cancel\"}")) {
            String run = rig.startLedger();
            clock.advance(Duration.ofMinutes(31));
            assertThat(rig.service().applyDeadlines()).extracting(DeadlineApplied::outcome)
                    .containsExactly(DeadlineApplied.Outcome.CANCELLED);
            assertThat(rig.run(run).status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(rig.event(run, "approval_expired").reasonCode()).isEqualTo("cancel");
            assertThat(LedgerTool.executions(folder.resolve("ledger.txt"))).isEmpty();
            assertThat(waits).containsExactly(new PersonWait(run, LedgerTool.ONE_PAUSE, "expired", "deadline", 0,
                    START.plus(Duration.ofMinutes(30)), "cancel", START, START.plus(Duration.ofMinutes(31))));
        }
    }

    @Test
    void escalateMarksTheCardExtendsOnceThenDenies() throws Exception {
        try (Rig rig = rig("{\"decisionDeadline\": \"8h\", \"onDeadline\": \"escalate\"}")) {
            String run = rig.startLedger();
            String other = rig.startLedger();
            clock.advance(Duration.ofHours(8));
            assertThat(rig.service().applyDeadlines()).extracting(DeadlineApplied::outcome)
                    .containsExactly(DeadlineApplied.Outcome.ESCALATED, DeadlineApplied.Outcome.ESCALATED);
            RunDeadline escalated = rig.service().deadline(OLGA, run).orElseThrow();
            assertThat(escalated.escalated()).isTrue();
            assertThat(escalated.due()).isEqualTo(START.plus(Duration.ofHours(16)));
            assertThat(rig.run(run).status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(rig.eventTypes(run)).containsExactly("approval_escalated");

            clock.advance(Duration.ofHours(7));
            assertThat(rig.service().applyDeadlines()).isEmpty();
            clock.advance(Duration.ofHours(1));
            assertThat(rig.service().applyDeadlines()).extracting(DeadlineApplied::outcome)
                    .containsExactly(DeadlineApplied.Outcome.DENIED, DeadlineApplied.Outcome.DENIED);
            assertThat(rig.run(run).status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(rig.run(other).status()).isEqualTo(RunStatus.COMPLETED);
        }
    }

    @Test
    void escalatedCardsComeFirstForTheEscalationRole() throws Exception {
        try (Rig rig = rig("{\"toolDeadlines\": {\"" + LedgerTool.NAME + "\": {\"decisionDeadline\": \"1h\","
                + " \"onDeadline\": \"escalate\"}}}")) {
            rig.service().start(OLGA, NoteFormTool.AGENT, "Take a note", false);
            clock.advance(Duration.ofMinutes(1));
            String ledger = rig.startLedger();
            clock.advance(Duration.ofHours(1));
            rig.service().applyDeadlines();
            assertThat(rig.service().inbox(ADA)).first().extracting(WaitingRun::runId).isEqualTo(ledger);
            assertThat(rig.service().inbox(OLGA)).last().extracting(WaitingRun::runId).isEqualTo(ledger);
            assertThat(rig.service().inbox(OLGA, InboxOrder.DEADLINE)).first().extracting(WaitingRun::runId)
                    .isEqualTo(ledger);
        }
    }

    @Test
    void extendMovesTheDeadlineOnceAndRecordsWhoAndWhen() throws Exception {
        try (Rig rig = rig("{\"decisionDeadline\": \"30m\"}")) {
            String run = rig.startLedger();
            clock.advance(Duration.ofMinutes(20));
            DeadlineExtension first = rig.service().extend(OLGA, run);
            assertThat(first).isInstanceOfSatisfying(DeadlineExtension.Extended.class, extended -> {
                assertThat(extended.deadline().due()).isEqualTo(START.plus(Duration.ofMinutes(60)));
                assertThat(extended.deadline().extendedBy()).isEqualTo("olga");
                assertThat(extended.deadline().extendedAt()).isEqualTo(START.plus(Duration.ofMinutes(20)));
            });
            assertThat(rig.event(run, "deadline_extended").actor()).isEqualTo("olga");

            DeadlineExtension second = rig.service().extend(ADA, run);
            assertThat(second).isInstanceOfSatisfying(DeadlineExtension.Refused.class, refused ->
                    assertThat(refused.reason()).contains("already extended by olga").contains("only once"));
            clock.advance(Duration.ofMinutes(30));
            assertThat(rig.service().applyDeadlines()).isEmpty();
            clock.advance(Duration.ofMinutes(10));
            assertThat(rig.service().applyDeadlines()).extracting(DeadlineApplied::outcome)
                    .containsExactly(DeadlineApplied.Outcome.DENIED);
        }
    }

    @Test
    void extendNeedsARoleThatWorksTheInbox() throws Exception {
        try (Rig rig = rig("{\"decisionDeadline\": \"30m\"}")) {
            String run = rig.startLedger();
            org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                            rig.service().extend(Actor.of("sam", Role.SUPERVISOR), run))
                    .isInstanceOf(NotPermittedException.class).hasMessageContaining("extend deadline");
        }
    }

    @Test
    void aHumanDecisionBeforeTheSweepWins() throws Exception {
        try (Rig rig = rig("{\"decisionDeadline\": \"30m\"}")) {
            String run = rig.startLedger();
            String digest = rig.service().inbox(OLGA).get(0).digest();
            clock.advance(Duration.ofMinutes(31));
            assertThat(rig.service().decide(OLGA, run, digest, List.of(Decision.CallVerdict.approve(0))))
                    .isInstanceOf(DecisionResult.Done.class);
            assertThat(rig.service().applyDeadlines()).isEmpty();
            assertThat(LedgerTool.executions(folder.resolve("ledger.txt"))).hasSize(1);
            assertThat(rig.eventTypes(run)).doesNotContain("approval_expired");
            assertThat(waits).containsExactly(new PersonWait(run, LedgerTool.ONE_PAUSE, "approved", "olga", 1,
                    START.plus(Duration.ofMinutes(30)), "deny", START, START.plus(Duration.ofMinutes(31))));
        }
    }

    @Test
    void anInputFormIsCancelledAtItsDeadline() throws Exception {
        try (Rig rig = rig("{\"toolDeadlines\": {\"" + NoteFormTool.NAME + "\": {\"decisionDeadline\": \"10m\","
                + " \"onDeadline\": \"cancel\"}}}")) {
            String run = rig.service().start(OLGA, NoteFormTool.AGENT, "Take a note", false).runId();
            assertThat(rig.run(run).status()).isEqualTo(RunStatus.WAITING_FOR_INPUT);
            clock.advance(Duration.ofMinutes(10));
            assertThat(rig.service().applyDeadlines()).extracting(DeadlineApplied::outcome)
                    .containsExactly(DeadlineApplied.Outcome.CANCELLED);
            assertThat(rig.run(run).status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(waits).singleElement().satisfies(wait -> {
                assertThat(wait.outcome()).isEqualTo("expired");
                assertThat(wait.fallback()).isEqualTo("cancel");
                assertThat(wait.waited()).isEqualTo(Duration.ofMinutes(10));
            });
        }
    }

    @Test
    void overdueDeadlinesOfAStoreWithNoProcessApplyWhenOneStarts() throws Exception {
        StoreLocation location = freshLocation();
        String run;
        try (Rig first = rig(location, "{\"decisionDeadline\": \"30m\"}")) {
            run = first.startLedger();
        }
        clock.advance(Duration.ofHours(5));
        try (Rig next = rig(location, "{\"decisionDeadline\": \"30m\"}")) {
            assertThat(next.service().applyDeadlines()).extracting(DeadlineApplied::outcome)
                    .containsExactly(DeadlineApplied.Outcome.DENIED);
            assertThat(next.run(run).status()).isEqualTo(RunStatus.COMPLETED);
        }
    }
}
