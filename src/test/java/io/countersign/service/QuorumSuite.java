package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.console.MovableClock;
import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.Role;
import io.countersign.engine.agent.ApprovalQuorum;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.decision.Decision.CallVerdict;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.ApprovalProgress;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.NetworkntSchemaValidator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two-person approval over a real store: approvals from distinct people add up to the agent's or the tool's count,
 * the last one resumes the run, any denial ends the wait, a changed card counts from none, and the count survives
 * a restart and a deadline still applies. Run on SQLite and PostgreSQL by the subclasses.
 */
abstract class QuorumSuite {
    static final Instant START = Instant.parse("2026-12-02T10:40:00Z");
    static final Actor OLGA = Actor.of("olga", Role.OPERATOR);
    static final Actor JONAS = Actor.of("jonas", Role.OPERATOR);
    static final Actor LENA = Actor.of("lena", Role.OPERATOR);
    static final Actor MARIA = Actor.of("maria", Role.OPERATOR);
    static final List<CallVerdict> APPROVE = List.of(CallVerdict.approve(0));

    @TempDir
    Path folder;

    final MovableClock clock = new MovableClock(START);

    abstract StoreLocation freshLocation() throws Exception;

    /** The service over the store, its ledger agent saved with these agents-file fields. */
    Rig rig(StoreLocation location, String fields) {
        List<Tool> tools = List.of(new LedgerTool(folder.resolve("ledger.txt")), new NoticeTool());
        Map<String, List<AssistantTurn>> scripts = Map.of(
                LedgerTool.ONE_PAUSE, LedgerTool.scripts().get(LedgerTool.ONE_PAUSE),
                NoticeTool.AGENT, NoticeTool.script());
        Store store = Store.open(location);
        ServiceRig.saveAgents(store, tools, scripts);
        ServiceRig.operators(store, "olga", "jonas", "lena", "maria");
        ObjectNode entry;
        try {
            entry = (ObjectNode) Json.mapper().readTree(fields);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
        for (String agent : scripts.keySet()) {
            StoredAgentConfiguration stored = store.configurations().findAgent(agent).orElseThrow();
            store.configurations().saveAgent(new StoredAgentConfiguration(stored.name(), stored.systemPrompt(),
                    stored.modelName(), stored.toolGroups(), stored.allowedTools(), stored.workspace(),
                    stored.toolCallPolicies(), stored.maxRounds(), entry.path("fourEyes").asBoolean(),
                    DecisionDeadlines.read(entry), ApprovalQuorum.read(entry)));
        }
        return new Rig(store, DefaultRunService.overStore(store, ToolRegistry.of(tools.toArray(Tool[]::new)),
                new NetworkntSchemaValidator(),
                ScriptedChatModel.byModel(scripts), InvocationRules.none(), clock, IdGenerator.random(),
                Locale.ENGLISH));
    }

    Rig rig(String fields) throws Exception {
        return rig(freshLocation(), fields);
    }

    record Rig(Store store, DefaultRunService service) implements AutoCloseable {
        String startLedger() {
            return service.start(OLGA, LedgerTool.ONE_PAUSE, "Record the entry", false).runId();
        }

        String digest(String runId) {
            return service.card(OLGA, runId).orElseThrow().digest();
        }

        DecisionResult approve(Actor actor, String runId) {
            return service.decide(actor, runId, digest(runId), APPROVE);
        }

        RunStatus status(String runId) {
            return store.runs().find(runId).orElseThrow().status();
        }

        @Override
        public void close() {
            store.close();
        }
    }

    private long executions() throws Exception {
        return LedgerTool.executions(folder.resolve("ledger.txt")).values().stream().mapToLong(Long::longValue).sum();
    }

    @Test
    void theSecondDistinctApprovalResumesTheRun() throws Exception {
        try (Rig rig = rig("{\"approvals\": 2}")) {
            String run = rig.startLedger();
            DecisionResult first = rig.approve(MARIA, run);
            assertThat(first).isInstanceOfSatisfying(DecisionResult.PartlyApproved.class, partly -> {
                assertThat(partly.progress().required()).isEqualTo(2);
                assertThat(partly.progress().approvals()).containsExactly(
                        new ApprovalProgress.Approver("maria", START));
            });
            assertThat(rig.status(run)).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(executions()).isZero();
            assertThat(rig.service().card(JONAS, run).orElseThrow().approvals()).isEqualTo(
                    new ApprovalProgress(2, List.of(new ApprovalProgress.Approver("maria", START))));

            clock.advance(Duration.ofMinutes(2));
            assertThat(rig.approve(JONAS, run)).isInstanceOfSatisfying(DecisionResult.Done.class, done ->
                    assertThat(done.approved()).isEqualTo(1));
            assertThat(rig.status(run)).isEqualTo(RunStatus.COMPLETED);
            assertThat(executions()).isEqualTo(1);
            assertThat(rig.store().runs().find(run).orElseThrow().lastDecision().summary())
                    .isEqualTo("approved 1, denied 0 (2 approvals: maria and jonas)");
            List<GovernanceEvent> events = rig.store().events().page(EventFilter.all(), PageRequest.first(100))
                    .events().stream().filter(event -> run.equals(event.runId())).toList();
            assertThat(events).extracting(event -> event.type().code() + " " + event.actor())
                    .containsExactlyInAnyOrder("approval_counted maria", "approval_decided jonas");
            // who, when, which run and tool: never the call's arguments (the entry "only")
            assertThat(events).allSatisfy(event -> assertThat(event.toString()).doesNotContain("only"));
        }
    }

    @Test
    void thePersonWhoApprovedCannotApproveAgain() throws Exception {
        try (Rig rig = rig("{\"approvals\": 2}")) {
            String run = rig.startLedger();
            rig.approve(MARIA, run);
            assertThat(rig.approve(MARIA, run)).isInstanceOfSatisfying(DecisionResult.NotPermitted.class, refused ->
                    assertThat(refused.reason()).startsWith("maria approved this card already")
                            .contains("someone else must approve it"));
            assertThat(rig.service().card(JONAS, run).orElseThrow().approvals().approvals()).hasSize(1);
            assertThat(executions()).isZero();
        }
    }

    @Test
    void theInitiatorIsNoneOfTheApproversUnderFourEyes() throws Exception {
        try (Rig rig = rig("{\"approvals\": 2, \"fourEyes\": true}")) {
            String run = rig.startLedger();
            assertThat(rig.approve(OLGA, run)).isInstanceOf(DecisionResult.FourEyes.class);
            assertThat(rig.approve(MARIA, run)).isInstanceOf(DecisionResult.PartlyApproved.class);
            assertThat(rig.approve(OLGA, run)).isInstanceOf(DecisionResult.FourEyes.class);
            assertThat(rig.status(run)).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(rig.approve(JONAS, run)).isInstanceOf(DecisionResult.Done.class);
        }
    }

    @Test
    void anyDenialEndsTheWait() throws Exception {
        try (Rig rig = rig("{\"approvals\": 3}")) {
            String run = rig.startLedger();
            rig.approve(MARIA, run);
            DecisionResult denied = rig.service().decide(JONAS, run, rig.digest(run),
                    List.of(CallVerdict.deny(0, "Wrong ledger")));
            assertThat(denied).isInstanceOfSatisfying(DecisionResult.Done.class, done ->
                    assertThat(done.denied()).isEqualTo(1));
            assertThat(rig.status(run)).isEqualTo(RunStatus.COMPLETED);
            assertThat(executions()).isZero();
        }
    }

    @Test
    void aChangedCardStartsTheCountAgain() throws Exception {
        try (Rig rig = rig("{\"approvals\": 2}")) {
            NoticeTool.PREVIEW.set("+ Canteen closed on Friday");
            String run = rig.service().start(OLGA, NoticeTool.AGENT, "Post the notice", false).runId();
            String seen = rig.digest(run);
            assertThat(rig.service().decide(MARIA, run, seen, APPROVE))
                    .isInstanceOf(DecisionResult.PartlyApproved.class);
            NoticeTool.PREVIEW.set("+ Canteen closed all week");
            // jonas's approval would complete the count, but what the call would do changed since maria saw it
            assertThat(rig.service().decide(JONAS, run, seen, APPROVE)).isInstanceOf(DecisionResult.Stale.class);
            String changed = rig.digest(run);
            assertThat(changed).isNotEqualTo(seen);
            assertThat(rig.service().card(JONAS, run).orElseThrow().approvals().approvals()).isEmpty();
            assertThat(rig.service().decide(MARIA, run, seen, APPROVE)).isInstanceOf(DecisionResult.Stale.class);
            assertThat(rig.service().decide(JONAS, run, changed, APPROVE))
                    .isInstanceOf(DecisionResult.PartlyApproved.class);
            assertThat(rig.service().decide(MARIA, run, changed, APPROVE)).isInstanceOf(DecisionResult.Done.class);
            assertThat(NoticeTool.POSTED.get()).isEqualTo("Canteen");
        }
    }

    @Test
    void approvalsSurviveARestart() throws Exception {
        StoreLocation location = freshLocation();
        String run;
        try (Rig rig = rig(location, "{\"approvals\": 2}")) {
            run = rig.startLedger();
            rig.approve(MARIA, run);
        }
        try (Rig rig = rig(location, "{\"approvals\": 2}")) {
            assertThat(rig.service().card(LENA, run).orElseThrow().approvals().approvals())
                    .extracting(ApprovalProgress.Approver::name).containsExactly("maria");
            assertThat(rig.approve(LENA, run)).isInstanceOf(DecisionResult.Done.class);
            assertThat(executions()).isEqualTo(1);
        }
    }

    @Test
    void aDeadlineStillAppliesToAPartlyApprovedCard() throws Exception {
        try (Rig rig = rig("{\"approvals\": 2, \"decisionDeadline\": \"90s\", \"onDeadline\": \"deny\"}")) {
            String run = rig.startLedger();
            String digest = rig.digest(run);
            rig.approve(MARIA, run);
            clock.advance(Duration.ofSeconds(90));
            assertThat(rig.service().applyDeadlines()).extracting(DeadlineApplied::outcome)
                    .containsExactly(DeadlineApplied.Outcome.DENIED);
            assertThat(rig.status(run)).isEqualTo(RunStatus.COMPLETED);
            assertThat(rig.service().decide(JONAS, run, digest, APPROVE))
                    .isInstanceOf(DecisionResult.AlreadyDecided.class);
            assertThat(executions()).isZero();
        }
    }

    @Test
    void aToolMayNeedMoreApprovalsThanTheAgent() throws Exception {
        try (Rig rig = rig("{\"toolApprovals\": {\"" + LedgerTool.NAME + "\": 3}}")) {
            String run = rig.startLedger();
            assertThat(rig.service().card(OLGA, run).orElseThrow().approvals().required()).isEqualTo(3);
            assertThat(rig.approve(MARIA, run)).isInstanceOf(DecisionResult.PartlyApproved.class);
            assertThat(rig.approve(LENA, run)).isInstanceOfSatisfying(DecisionResult.PartlyApproved.class,
                    partly -> assertThat(partly.progress().approvals()).extracting(ApprovalProgress.Approver::name)
                            .containsExactly("maria", "lena"));
            assertThat(rig.approve(JONAS, run)).isInstanceOf(DecisionResult.Done.class);
            assertThat(executions()).isEqualTo(1);
        }
    }

    @Test
    void approvalsLeftToAWorkerCountTheSameWay() throws Exception {
        try (Rig rig = rig("{\"approvals\": 2}")) {
            DefaultExecutionService execution = new DefaultExecutionService(rig.service(), rig.store().runs(),
                    rig.store().runs(), rig.store().users(), rig.store().changes(), clock, IdGenerator.random());
            String run = rig.startLedger();
            String digest = rig.digest(run);
            assertThat(execution.decideForWorker(MARIA, run, digest, APPROVE))
                    .isInstanceOf(DecisionResult.PartlyApproved.class);
            assertThat(rig.status(run)).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(execution.decideForWorker(MARIA, run, digest, APPROVE))
                    .isInstanceOf(DecisionResult.NotPermitted.class);
            assertThat(execution.decideForWorker(JONAS, run, digest, APPROVE)).isInstanceOfSatisfying(
                    DecisionResult.Done.class, done -> assertThat(done.status()).isEqualTo(RunStatus.QUEUED));
            assertThat(executions()).isZero();
        }
    }

    @Test
    void aCardOnePersonDecidesShowsNoCount() throws Exception {
        try (Rig rig = rig("{}")) {
            String run = rig.startLedger();
            assertThat(rig.service().card(OLGA, run).orElseThrow().approvals()).isEqualTo(ApprovalProgress.SINGLE);
            assertThat(rig.approve(MARIA, run)).isInstanceOf(DecisionResult.Done.class);
        }
    }

    /** A write whose preview the test changes, to change its card; it remembers the first word it posted. */
    static final class NoticeTool implements Tool {
        static final String AGENT = "notice-bot";
        static final AtomicReference<String> PREVIEW = new AtomicReference<>("+ notice");
        static final AtomicReference<String> POSTED = new AtomicReference<>();

        static List<AssistantTurn> script() {
            ObjectNode arguments = JsonNodeFactory.instance.objectNode().put("text", "Canteen");
            return List.of(LedgerTool.turn("Posting it.", new ToolCall("n", "notice_post", arguments)),
                    LedgerTool.turn("Posted."));
        }

        @Override
        public String name() {
            return "notice_post";
        }

        @Override
        public String description() {
            return "Posts a notice.";
        }

        @Override
        public ObjectNode argumentSchema() {
            ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
            schema.putObject("properties").putObject("text").put("type", "string");
            return schema;
        }

        @Override
        public ToolEffect effect() {
            return ToolEffect.WRITE;
        }

        @Override
        public DataClass dataClass() {
            return DataClass.PUBLIC_CONTENT;
        }

        @Override
        public String group() {
            return "notices";
        }

        @Override
        public java.util.Optional<ToolPreview> preview(ToolCallRequest request) {
            return java.util.Optional.of(new ToolPreview(List.of(PREVIEW.get())));
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            POSTED.set(request.arguments().path("text").asText());
            return ToolResult.ok("posted");
        }
    }
}
