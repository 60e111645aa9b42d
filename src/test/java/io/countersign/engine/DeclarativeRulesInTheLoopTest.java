package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.cel.CelConditionLanguage;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.event.EventType;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.invocation.ToolInvocationRule;
import io.countersign.engine.invocation.ToolTargetResolver;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.rules.DeclarativeRules;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The four rules an admin writes without Java, in real runs of the loop: web fetches off the docs site need a
 * person, no delete under releases/, a large write needs two approvals, {@code rm -rf} is refused with a reason.
 */
class DeclarativeRulesInTheLoopTest {
    private final TestTools.Recording webFetch = TestTools.read("web_fetch");
    private final TestTools.Recording fsDelete = TestTools.write("fs_delete");
    private final TestTools.Recording fsWrite = TestTools.write("fs_write");
    private final TestTools.Recording shell = TestTools.read("shell.run");
    private final LoopHarness harness = new LoopHarness(webFetch, fsDelete, fsWrite, shell);
    private final AtomicReference<List<DeclarativeRule>> saved = new AtomicReference<>(List.of());
    // file targets as a resolver names them: the path, relative to the workspace
    private final ToolTargetResolver files = (tool, arguments, configuration) -> tool.startsWith("fs_")
            ? new ToolInvocationTarget("file", arguments.path("path").asText()) : null;
    private final InvocationRules rules = InvocationRules.of(List.of(), List.of(files))
            .withLive(new DeclarativeRules(() -> saved.get(), new CelConditionLanguage(), harness.registry,
                    Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC)));

    private void save(DeclarativeRule... rules) {
        saved.set(List.of(rules));
    }

    private static DeclarativeRule ask(String id, String when, int approvals) {
        return new DeclarativeRule(id, when, new DeclarativeRule.Action.Ask(approvals), DeclarativeRule.Scope.ALL,
                true, "");
    }

    private static DeclarativeRule deny(String id, String when, String reason, String explain, String explainDe) {
        return new DeclarativeRule(id, when, new DeclarativeRule.Action.Deny(reason, explain, explainDe),
                DeclarativeRule.Scope.ALL, true, "");
    }

    private ToolLoop loop(String script) {
        return harness.loop(ScriptedChatModel.fromJson(script), rules);
    }

    @Test
    void aWebFetchOffTheDocsSiteStopsOnACardNamingTheRuleAndOneToTheDocsRuns() {
        save(ask("web.off-docs", "tool == 'web_fetch' && !args.url.startsWith('https://docs.example.org/')", 1));
        ToolLoop loop = loop(script(calls(call("c1", "web_fetch", "{\"url\": \"https://docs.example.org/a\"}"),
                call("c2", "web_fetch", "{\"url\": \"https://evil.example.com/x\"}")), answer("ok")));

        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("read"))).state();
        assertThat(state.awaitingApproval()).singleElement().satisfies(call -> {
            assertThat(call.call().id()).isEqualTo("c2");
            assertThat(call.asked()).isEqualTo(new PendingCall.Asked("web.off-docs", 1));
        });
        assertThat(state.calls().get(0).disposition()).isEqualTo(PendingCall.Disposition.RUNS_ON_RESUME);
        assertThat(webFetch.executed).isEmpty();

        RunOutcome done = loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state,
                harness.jonas));
        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(webFetch.executed).hasSize(2);
    }

    @Test
    void aWebFetchToTheDocsAloneRunsWithoutACard() {
        save(ask("web.off-docs", "tool == 'web_fetch' && !args.url.startsWith('https://docs.example.org/')", 1));
        RunOutcome done = loop(script(calls(call("c1", "web_fetch", "{\"url\": \"https://docs.example.org/a\"}")),
                answer("ok"))).runLoop(harness.request("read"));
        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(webFetch.executed).hasSize(1);
        assertThat(harness.events(EventType.INVOCATION_DENIED)).isEmpty();
    }

    @Test
    void aDeleteUnderReleasesIsRefusedOnTheCardWithItsExplanationInTheRunsLanguage() {
        save(deny("releases.keep", "tool == 'fs_delete' && target.id.startsWith('releases/')", "release_kept",
                "Releases are kept; delete nothing under releases/.",
                "Releases bleiben erhalten; lösche nichts unter releases/."));
        ToolLoop loop = loop(script(calls(call("c1", "fs_delete", "{\"path\": \"releases/v1.zip\"}"),
                call("c2", "fs_delete", "{\"path\": \"drafts/old.md\"}")), answer("ok")));
        RunRequest german = RunRequest.of(harness.agent, ToolExecutionContext.of(harness.maria, "run-1",
                Locale.GERMAN), "tidy");

        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(german)).state();
        assertThat(state.awaitingApproval()).extracting(c -> c.call().id()).containsExactly("c2");
        assertThat(state.refused()).singleElement().satisfies(call -> {
            assertThat(call.refusal().ruleIdentifier()).isEqualTo("releases.keep");
            assertThat(call.refusal().reasonCode()).isEqualTo("release_kept");
            assertThat(call.refusal().explanation()).isEqualTo("Releases bleiben erhalten; lösche nichts unter"
                    + " releases/.");
        });
        RunOutcome done = loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state,
                harness.jonas));
        assertThat(fsDelete.executed).extracting(args -> args.path("path").asText()).containsExactly("drafts/old.md");
        assertThat(resultOf(done, "c1")).startsWith("Error: invocation denied (rule: releases.keep, reason:"
                + " release_kept). Nothing was executed.");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).singleElement().satisfies(event -> {
            assertThat(event.ruleId()).isEqualTo("releases.keep");
            assertThat(event.reasonCode()).isEqualTo("release_kept");
            assertThat(event.detail()).isNull();
        });
    }

    @Test
    void aLargeWriteAsksForTwoApprovalsAndASmallOneForTheToolsOne() {
        save(ask("write.large", "tool == 'fs_write' && size(args.content) > 50000", 2));
        String large = "x".repeat(60_000);
        PausedState state = ((RunOutcome.WaitingForApproval) loop(script(calls(
                call("c1", "fs_write", "{\"path\": \"big.md\", \"content\": \"" + large + "\"}"),
                call("c2", "fs_write", "{\"path\": \"small.md\", \"content\": \"hi\"}")), answer("ok")))
                .runLoop(harness.request("write"))).state();
        assertThat(state.awaitingApproval()).extracting(PendingCall::asked)
                .containsExactly(new PendingCall.Asked("write.large", 2), null);
        assertThat(state.awaitingApproval()).extracting(PendingCall::askedApprovals).containsExactly(2, 1);
    }

    @Test
    void rmRfIsRefusedWithTheExplanationAndOtherCommandsRun() {
        save(deny("shell.no-rm-rf", "tool == 'shell.run' && args.command.matches('rm\\\\s+-rf')", "destructive",
                "Recursive deletes are not run; remove the files one by one.", null));
        RunOutcome done = loop(script(calls(call("c1", "shell.run", "{\"command\": \"rm -rf build/\"}"),
                call("c2", "shell.run", "{\"command\": \"ls build/\"}")), answer("ok")))
                .runLoop(harness.request("clean"));
        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(shell.executed).extracting(args -> args.path("command").asText()).containsExactly("ls build/");
        assertThat(resultOf(done, "c1")).isEqualTo("Error: invocation denied (rule: shell.no-rm-rf, reason:"
                + " destructive). Nothing was executed. Recursive deletes are not run; remove the files one by one.");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).extracting(e -> e.ruleId())
                .containsExactly("shell.no-rm-rf");
    }

    @Test
    void aRuleScopedToOtherAgentsOrToGatewayProfilesLeavesThisAgentsCallsAlone() {
        DeclarativeRule.Action no = new DeclarativeRule.Action.Deny("scoped", "Scoped.", null);
        save(new DeclarativeRule("other.agents", "tool == 'shell.run'", no,
                        new DeclarativeRule.Scope(Set.of("other"), Set.of()), true, ""),
                new DeclarativeRule("a.profile", "tool == 'shell.run'", no,
                        new DeclarativeRule.Scope(Set.of(), Set.of("helper")), true, ""),
                new DeclarativeRule("switched.off", "tool == 'shell.run'", no, DeclarativeRule.Scope.ALL, false, ""));
        RunOutcome done = loop(script(calls(call("c1", "shell.run", "{\"command\": \"ls\"}")), answer("ok")))
                .runLoop(harness.request("list"));
        assertThat(shell.executed).hasSize(1);

        save(new DeclarativeRule("this.agent", "tool == 'shell.run'", no,
                new DeclarativeRule.Scope(Set.of("helper"), Set.of()), true, ""));
        RunOutcome refused = loop(script(calls(call("c1", "shell.run", "{\"command\": \"ls\"}")), answer("ok")))
                .runLoop(harness.request("list"));
        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(shell.executed).hasSize(1);
        assertThat(resultOf(refused, "c1")).startsWith("Error: invocation denied (rule: this.agent, reason: scoped)");
    }

    @Test
    void aConditionThatFailsOnACallRefusesItAsRuleFailedNeverAllowsIt() {
        save(deny("needs.host", "tool == 'shell.run' && args.host == 'prod'", "prod_host", "Not on prod.", null));
        RunOutcome done = loop(script(calls(call("c1", "shell.run", "{\"command\": \"ls\"}")), answer("ok")))
                .runLoop(harness.request("list"));
        assertThat(shell.executed).isEmpty();
        assertThat(resultOf(done, "c1")).startsWith("Error: invocation denied (rule: needs.host, reason:"
                + " rule_failed)");
    }

    @Test
    void anAskRuleThatFailsShowsACardAndTheApprovedCallIsStillRefusedRuleFailed() {
        save(ask("web.host", "tool == 'web_fetch' && args.host == 'x'", 1));
        ToolLoop loop = loop(script(calls(call("c1", "web_fetch", "{\"url\": \"https://a.example/\"}")),
                answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("read"))).state();
        assertThat(state.awaitingApproval()).singleElement().extracting(PendingCall::asked)
                .isEqualTo(new PendingCall.Asked("web.host", 1));
        RunOutcome done = loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state,
                harness.jonas));
        assertThat(webFetch.executed).isEmpty();
        assertThat(resultOf(done, "c1")).contains("reason: rule_failed");
    }

    @Test
    void aJavaRuleDeniesFirstAndALiveRuleWithItsIdentifierIsNeverAsked() {
        ToolInvocationRule javaRule = new ToolInvocationRule() {
            @Override
            public String identifier() {
                return "fixed.rule";
            }

            @Override
            public ToolInvocationDecision decide(ToolInvocationContext context) {
                return context.toolName().equals("shell.run") ? ToolInvocationDecision.deny("java_says_no")
                        : ToolInvocationDecision.allow();
            }
        };
        InvocationRules withJava = InvocationRules.of(List.of(javaRule), List.of(files))
                .withLive(new DeclarativeRules(() -> saved.get(), new CelConditionLanguage(), harness.registry,
                        Clock.systemUTC()));
        save(deny("fixed.rule", "true", "shadow", "A rule with a built-in's name is never asked.", null),
                deny("shell.any", "tool == 'shell.run'", "declared_no", "Declared no.", null));
        RunOutcome outcome = harness.loop(ScriptedChatModel.fromJson(script(calls(
                call("c1", "shell.run", "{\"command\": \"ls\"}"), call("c2", "fs_write", "{\"path\": \"a.md\"}")),
                answer("ok"))), withJava).runLoop(harness.request("write"));
        PausedState state = ((RunOutcome.WaitingForApproval) outcome).state();
        assertThat(state.awaitingApproval()).extracting(c -> c.call().id()).containsExactly("c2");
        RunOutcome done = harness.loop(ScriptedChatModel.fromJson(script(answer("ok"))), withJava)
                .resumeApproval(state, harness.agent, TestDecisions.approveAll(state, harness.jonas));
        assertThat(resultOf(done, "c1")).startsWith("Error: invocation denied (rule: fixed.rule, reason:"
                + " java_says_no)");
        assertThat(shell.executed).isEmpty();
        assertThat(fsWrite.executed).hasSize(1);
    }
}
