package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.invocation.ToolInvocationRule;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolEffect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The real invocation rules (the built-in ones found through the service loader, then random rules registered in
 * code) asked by the loop about random turns of calls. Every approval pause is stored as JSON, read back and
 * approved in full, so pre-approval refusals cross a pause and a resume.
 */
class InvocationRulesInTheLoopProperties {
    private static final String BOUNDARY = "workspace.boundary";
    private static final Set<String> FAILURE_CODES = Set.of(InvocationVerdict.RULE_FAILED,
            InvocationVerdict.HISTORY_INCOMPLETE, InvocationVerdict.POLICY_FAILED);
    private static Path workspace;

    @BeforeContainer
    static void createTheWorkspace() throws IOException {
        workspace = Files.createTempDirectory("loop-properties");
    }

    @AfterContainer
    static void removeTheWorkspace() throws IOException {
        Files.delete(workspace);
    }

    /** The tools of a run: file and other tools, reading and writing (approval-bound), and one never offered. */
    enum Kind {
        FS_READ("fs_read", ToolEffect.READ, "files"),
        WEB_FETCH("web_fetch", ToolEffect.READ, "files"),
        FS_WRITE("fs_write", ToolEffect.WRITE, "files"),
        FS_DELETE("fs_delete", ToolEffect.WRITE, "files"),
        DB_UPDATE("db_update", ToolEffect.WRITE, "files"),
        MAIL_SEND("mail_send", ToolEffect.READ, "mail");

        final String toolName;
        final ToolEffect effect;
        final String group;

        Kind(String toolName, ToolEffect effect, String group) {
            this.toolName = toolName;
            this.effect = effect;
            this.group = group;
        }

        boolean offered() {
            return group.equals("files");
        }

        boolean approvalBound() {
            return effect == ToolEffect.WRITE;
        }

        boolean fileTool() {
            return toolName.startsWith("fs_");
        }
    }

    enum Behaviour {
        ALLOW, DENY, THROW
    }

    /** A rule registered in code: answers as its behaviour says for calls to {@code onlyFor} (or any tool). */
    record RuleSpec(Behaviour behaviour, String code, String explanation, Kind onlyFor, boolean preApproval) {
        Behaviour behaviourFor(Kind kind) {
            return onlyFor == null || onlyFor == kind ? behaviour : Behaviour.ALLOW;
        }

        ToolInvocationRule build(String identifier) {
            Function<ToolInvocationContext, ToolInvocationDecision> answer = context ->
                    switch (behaviourFor(kindOf(context.toolName()))) {
                        case ALLOW -> ToolInvocationDecision.allow();
                        case DENY -> ToolInvocationDecision.deny(code, explanation);
                        case THROW -> throw new IllegalStateException("secret detail of " + identifier);
                    };
            return preApproval ? CountingRule.marked(identifier, answer) : CountingRule.answering(identifier, answer);
        }
    }

    /** One call the model asks for; {@code outside} points its path out of the workspace. */
    record CallSpec(Kind kind, boolean outside) {
    }

    /** A call's expected refusal by a rule. */
    record Refusal(String toolName, String ruleIdentifier, String reasonCode, String explanation) {
        String resultText() {
            return new InvocationVerdict(ToolInvocationDecision.deny(reasonCode, explanation), ruleIdentifier, null)
                    .refusalText();
        }
    }

    /** What a whole run did: its outcome, its events and every tool's executions. */
    record Run(RunOutcome outcome, List<GovernanceEvent> events, Map<String, TestTools.Recording> tools) {
        List<GovernanceEvent> invocationDenials() {
            return events.stream().filter(e -> e.type() == EventType.INVOCATION_DENIED).toList();
        }
    }

    @Provide
    Arbitrary<List<RuleSpec>> ruleLists() {
        Arbitrary<String> codes = Combinators.combine(
                Arbitraries.chars().range('a', 'z'),
                Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyz0123456789_.-").ofMaxLength(20))
                .as((first, rest) -> first + rest)
                .filter(code -> !FAILURE_CODES.contains(code));
        Arbitrary<RuleSpec> spec = Combinators.combine(
                Arbitraries.frequency(Tuple.of(3, Behaviour.ALLOW), Tuple.of(1, Behaviour.DENY),
                        Tuple.of(1, Behaviour.THROW)),
                codes,
                Arbitraries.of("Ask the release manager first.", "Use the staging folder instead.").injectNull(0.5),
                Arbitraries.of(Kind.class).injectNull(0.5),
                Arbitraries.of(true, false)).as(RuleSpec::new);
        return spec.list().ofMaxSize(8);
    }

    @Provide
    Arbitrary<List<List<CallSpec>>> turns() {
        Arbitrary<CallSpec> call = Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.frequency(Tuple.of(4, false), Tuple.of(1, true))).as(CallSpec::new);
        return call.list().ofMinSize(1).ofMaxSize(4).list().ofMinSize(1).ofMaxSize(4);
    }

    @Property(tries = 100)
    void theFirstRefusingRuleIsReportedToTheModelAndInTheEvent(@ForAll("ruleLists") List<RuleSpec> rules,
                                                              @ForAll("turns") List<List<CallSpec>> turns) {
        Run run = run(rules, turns);

        List<Refusal> expected = new ArrayList<>();
        forEachCall(turns, (id, call) -> {
            Refusal refusal = expectedRefusal(call, rules);
            if (refusal != null) {
                expected.add(refusal);
                assertThat(LoopHarness.resultOf(run.outcome(), id)).as("result of %s", id)
                        .isEqualTo(refusal.resultText());
            }
        });
        assertThat(run.invocationDenials())
                .extracting(e -> new Refusal(e.toolName(), e.ruleId(), e.reasonCode(), null))
                .containsExactlyInAnyOrderElementsOf(expected.stream()
                        .map(r -> new Refusal(r.toolName(), r.ruleIdentifier(), r.reasonCode(), null)).toList());
    }

    @Property(tries = 100)
    void aRefusedCallNeverExecutes(@ForAll("ruleLists") List<RuleSpec> rules,
                                   @ForAll("turns") List<List<CallSpec>> turns) {
        Run run = run(rules, turns);

        Map<String, List<String>> expectedPaths = new HashMap<>();
        forEachCall(turns, (id, call) -> {
            if (call.kind().offered() && expectedRefusal(call, rules) == null) {
                expectedPaths.computeIfAbsent(call.kind().toolName, name -> new ArrayList<>()).add(path(id, call));
            }
        });
        for (Kind kind : Kind.values()) {
            assertThat(run.tools().get(kind.toolName).executed).as("executions of %s", kind.toolName)
                    .extracting(arguments -> arguments.path("path").asText())
                    .containsExactlyElementsOf(expectedPaths.getOrDefault(kind.toolName, List.of()));
        }
    }

    @Property(tries = 100)
    void eachRefusedCallIsRecordedOnceAcrossPausesAndResumes(@ForAll("ruleLists") List<RuleSpec> rules,
                                                            @ForAll("turns") List<List<CallSpec>> turns) {
        Run run = run(rules, turns);

        int[] refused = {0};
        forEachCall(turns, (id, call) -> refused[0] += expectedRefusal(call, rules) == null ? 0 : 1);
        assertThat(run.invocationDenials()).hasSize(refused[0]);
        assertThat(run.outcome().history().observations())
                .hasSize(turns.stream().mapToInt(List::size).sum());
    }

    /**
     * The refusal the loop should report for a call, or {@code null} when no rule refuses it (a tool that is not
     * offered is refused by the access gates, before any rule). An approval-bound call is refused at the scan by
     * the first pre-approval rule that deliberately denies it; otherwise, and for every other call, by the first
     * rule of all that does not allow it when it would execute.
     */
    private static Refusal expectedRefusal(CallSpec call, List<RuleSpec> rules) {
        if (!call.kind().offered()) {
            return null;
        }
        if (call.kind().approvalBound()) {
            Refusal atTheScan = firstRefusal(call, rules, true);
            if (atTheScan != null && !FAILURE_CODES.contains(atTheScan.reasonCode())) {
                return atTheScan;
            }
        }
        return firstRefusal(call, rules, false);
    }

    private static Refusal firstRefusal(CallSpec call, List<RuleSpec> rules, boolean preApprovalOnly) {
        String toolName = call.kind().toolName;
        if (call.kind().fileTool() && call.outside()) {
            return new Refusal(toolName, BOUNDARY, "outside_workspace",
                    "Keep file access inside the workspace folder \"" + workspace.getFileName() + "\".");
        }
        // repeat.after.denial comes next and allows: no two calls of a run share a target.
        for (int i = 0; i < rules.size(); i++) {
            RuleSpec rule = rules.get(i);
            if (preApprovalOnly && !rule.preApproval()) {
                continue;
            }
            switch (rule.behaviourFor(call.kind())) {
                case ALLOW -> {
                }
                case DENY -> {
                    return new Refusal(toolName, identifier(i), rule.code(), rule.explanation());
                }
                case THROW -> {
                    return new Refusal(toolName, identifier(i), InvocationVerdict.RULE_FAILED, null);
                }
            }
        }
        return null;
    }

    private static Run run(List<RuleSpec> specs, List<List<CallSpec>> turns) {
        Map<String, TestTools.Recording> tools = new HashMap<>();
        for (Kind kind : Kind.values()) {
            tools.put(kind.toolName, new TestTools.Recording(kind.toolName, kind.effect, DataClass.SOURCE_CODE,
                    kind.group));
        }
        LoopHarness harness = new LoopHarness(tools.values().toArray(Tool[]::new));
        harness.agent = harness.agent.withWorkspace(workspace.toString());
        List<ToolInvocationRule> rules = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            rules.add(specs.get(i).build(identifier(i)));
        }
        InvocationRules installed = InvocationRules.discover(rules, List.of());
        assertThat(installed.identifiers()).startsWith(BOUNDARY, "repeat.after.denial");
        ToolLoop loop = harness.loop(ScriptedChatModel.of(script(turns)), installed);

        // Captured only to keep the console quiet: every throwing rule is logged.
        try (CapturedOutput quiet = CapturedOutput.start()) {
            RunOutcome outcome = loop.runLoop(harness.request("work"));
            while (outcome instanceof RunOutcome.WaitingForApproval waiting) {
                PausedState stored = PausedStateCodec.fromJson(PausedStateCodec.toJson(waiting.state()));
                outcome = loop.resumeApproval(stored, harness.agent, TestDecisions.approveAll(stored,
                        harness.jonas));
            }
            assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
            return new Run(outcome, List.copyOf(harness.events), tools);
        }
    }

    private static List<AssistantTurn> script(List<List<CallSpec>> turns) {
        List<AssistantTurn> script = new ArrayList<>();
        for (int t = 0; t < turns.size(); t++) {
            List<ToolCall> calls = new ArrayList<>();
            for (int c = 0; c < turns.get(t).size(); c++) {
                String id = id(t, c);
                CallSpec call = turns.get(t).get(c);
                calls.add(new ToolCall(id, call.kind().toolName,
                        TestTools.JSON.createObjectNode().put("path", path(id, call))));
            }
            script.add(new AssistantTurn("working", calls, new TokenUsage(10, 5)));
        }
        script.add(new AssistantTurn("done", List.of(), new TokenUsage(7, 3)));
        return script;
    }

    private interface CallVisitor {
        void visit(String id, CallSpec call);
    }

    private static void forEachCall(List<List<CallSpec>> turns, CallVisitor visitor) {
        for (int t = 0; t < turns.size(); t++) {
            for (int c = 0; c < turns.get(t).size(); c++) {
                visitor.visit(id(t, c), turns.get(t).get(c));
            }
        }
    }

    private static String id(int turn, int call) {
        return "t" + turn + "c" + call;
    }

    /** A path no other call of the run shares, so {@code repeat.after.denial} never has a repeat to refuse. */
    private static String path(String id, CallSpec call) {
        return call.outside() ? "../outside-" + id + ".md" : "notes/" + id + ".md";
    }

    private static String identifier(int index) {
        return "rule-" + index;
    }

    private static Kind kindOf(String toolName) {
        for (Kind kind : Kind.values()) {
            if (kind.toolName.equals(toolName)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("no test tool is called " + toolName);
    }
}
