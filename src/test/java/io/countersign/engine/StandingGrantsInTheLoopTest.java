package io.countersign.engine;

import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static io.countersign.engine.TestTools.args;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.event.EventType;
import io.countersign.engine.grant.Grant;
import io.countersign.engine.grant.GrantScope;
import io.countersign.engine.grant.GrantSpan;
import io.countersign.engine.intent.ToolCallPolicy;
import io.countersign.engine.port.StandingGrants;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The approval scan consults standing grants: what a grant lets run without a pause, and what it never does. */
class StandingGrantsInTheLoopTest {
    private static final String SAVE = call("c1", "save", "{\"path\": \"docs/a.md\"}");

    private final TestTools.Recording save = TestTools.write("save");
    private final TestTools.Recording publish = TestTools.write("publish");
    private final LoopHarness harness = new LoopHarness(save, publish);
    private final Kept kept = new Kept();

    StandingGrantsInTheLoopTest() {
        harness.grants = kept;
    }

    /** Grants in memory, with the uses they counted. */
    static final class Kept implements StandingGrants {
        final List<Grant> grants = new CopyOnWriteArrayList<>();
        final Map<String, Integer> uses = new ConcurrentHashMap<>();

        @Override
        public List<Grant> live(String agent, String tool, Instant now) {
            return grants.stream().filter(g -> g.agent().equals(agent) && g.tool().equals(tool) && g.liveAt(now))
                    .toList();
        }

        @Override
        public void used(String grantId, Instant at) {
            uses.merge(grantId, 1, Integer::sum);
        }
    }

    private static Grant grant(String id, String tool, String arguments, String by, Instant at) {
        return new Grant(id, "helper", tool, GrantScope.SameArguments.of(args(arguments)), GrantSpan.ONE_HOUR, null,
                by, at, GrantSpan.ONE_HOUR.expiry(at), 0, null, null);
    }

    @Test
    void aGrantedCallRunsWithoutAPauseAndIsRecordedWithTheGrantsId() {
        kept.grants.add(grant("g-1", "save", "{\"path\": \"docs/a.md\"}", "jonas", Instant.now()));
        RunOutcome outcome = harness.loop(script(calls(SAVE), answer("saved"))).runLoop(harness.request("save"));
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(save.executed).containsExactly(args("{\"path\": \"docs/a.md\"}"));
        assertThat(harness.events(EventType.APPROVED_BY_GRANT)).singleElement().satisfies(event -> {
            assertThat(event.detail()).isEqualTo("grant g-1");
            assertThat(event.actor()).isEqualTo("jonas");
            assertThat(event.toolName()).isEqualTo("save");
        });
        assertThat(kept.uses).containsEntry("g-1", 1);
    }

    @Test
    void keysInAnotherOrderAreTheSameCanonicalArguments() {
        kept.grants.add(grant("g-1", "save", "{\"b\": 1, \"path\": \"docs/a.md\"}", "jonas", Instant.now()));
        RunOutcome outcome = harness.loop(script(calls(call("c1", "save", "{\"path\": \"docs/a.md\", \"b\": 1}")),
                answer("saved"))).runLoop(harness.request("save"));
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void otherArgumentsStillPause() {
        kept.grants.add(grant("g-1", "save", "{\"path\": \"docs/b.md\"}", "jonas", Instant.now()));
        RunOutcome outcome = harness.loop(script(calls(SAVE))).runLoop(harness.request("save"));
        assertThat(outcome).isInstanceOf(RunOutcome.WaitingForApproval.class);
        assertThat(save.executed).isEmpty();
        assertThat(kept.uses).isEmpty();
    }

    @Test
    void aGrantedCallStillGoesThroughEveryInvocationRule() {
        kept.grants.add(grant("g-1", "save", "{\"path\": \"docs/a.md\"}", "jonas", Instant.now()));
        harness.invocationPolicy = context -> new InvocationVerdict(ToolInvocationDecision.deny("frozen",
                "The docs are frozen."), "freeze", null);
        RunOutcome outcome = harness.loop(script(calls(SAVE), answer("ok"))).runLoop(harness.request("save"));
        assertThat(save.executed).isEmpty();
        assertThat(resultOf(outcome, "c1")).contains("The docs are frozen.");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).hasSize(1);
    }

    @Test
    void aGrantNeverApprovesARunOfItsMakerUnderFourEyes() {
        kept.grants.add(grant("g-1", "save", "{\"path\": \"docs/a.md\"}", "maria", Instant.now()));
        harness.agent = harness.agent.withFourEyes(true);
        RunOutcome mine = harness.loop(script(calls(SAVE))).runLoop(harness.request("save"));
        assertThat(mine).isInstanceOf(RunOutcome.WaitingForApproval.class);
        assertThat(save.executed).isEmpty();

        harness.agent = harness.agent.withFourEyes(false);
        RunOutcome without = harness.loop(script(calls(SAVE), answer("ok"))).runLoop(harness.request("save"));
        assertThat(without.status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void aRedirectedCallDoesNotMatchAGrantForItsOriginalTool() {
        kept.grants.add(grant("g-1", "save", "{\"path\": \"docs/a.md\"}", "jonas", Instant.now()));
        harness.agent = harness.agent.withToolCallPolicies(List.of(ToolCallPolicy.redirect("to-publish",
                context -> true, Set.of("save"), "publish")));
        RunOutcome outcome = harness.loop(script(calls(SAVE))).runLoop(harness.request("save"));
        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.WaitingForApproval.class, waiting ->
                assertThat(waiting.state().awaitingApproval()).extracting(c -> c.call().name())
                        .containsExactly("publish"));
        assertThat(save.executed).isEmpty();
        assertThat(publish.executed).isEmpty();
        assertThat(harness.events(EventType.APPROVED_BY_GRANT)).isEmpty();
    }

    @Test
    void anExpiredOrRevokedGrantApprovesNothing() {
        Instant twoHoursAgo = Instant.now().minus(Duration.ofHours(2));
        kept.grants.add(grant("g-old", "save", "{\"path\": \"docs/a.md\"}", "jonas", twoHoursAgo));
        Grant live = grant("g-revoked", "save", "{\"path\": \"docs/a.md\"}", "jonas", Instant.now());
        kept.grants.add(new Grant(live.id(), live.agent(), live.tool(), live.scope(), live.span(), null,
                live.grantedBy(), live.grantedAt(), live.expiresAt(), 0, "ada", Instant.now()));
        RunOutcome outcome = harness.loop(script(calls(SAVE))).runLoop(harness.request("save"));
        assertThat(outcome).isInstanceOf(RunOutcome.WaitingForApproval.class);
    }

    @Test
    void aGrantForTheRestOfARunApprovesNoOtherRun() {
        kept.grants.add(new Grant("g-run", "helper", "save", GrantScope.SameArguments.of(args("{\"path\":"
                + " \"docs/a.md\"}")), GrantSpan.REST_OF_RUN, "run-7", "jonas", Instant.now(), null, 0, null, null));
        RunOutcome outcome = harness.loop(script(calls(SAVE))).runLoop(harness.request("save"));
        assertThat(outcome).isInstanceOf(RunOutcome.WaitingForApproval.class);
    }

    @Test
    void aFolderGrantCoversTheFilesInItOnTheTargetTheRulesResolved() {
        kept.grants.add(new Grant("g-docs", "helper", "save", new GrantScope.Folder("docs/"), GrantSpan.EIGHT_HOURS,
                null, "jonas", Instant.now(), GrantSpan.EIGHT_HOURS.expiry(Instant.now()), 0, null, null));
        harness.preApprovalPolicy = context -> InvocationVerdict.allowed(
                new io.countersign.engine.call.ToolInvocationTarget("file",
                        context.arguments().path("path").asText()));
        RunOutcome inside = harness.loop(script(calls(SAVE), answer("ok"))).runLoop(harness.request("save"));
        assertThat(inside.status()).isEqualTo(RunStatus.COMPLETED);
        RunOutcome outside = harness.loop(script(calls(call("c1", "save", "{\"path\": \"docsy/a.md\"}"))))
                .runLoop(harness.request("save"));
        assertThat(outside).isInstanceOf(RunOutcome.WaitingForApproval.class);
    }
}
