package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.decision.Decision.CallVerdict;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.Tool;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deciding many cards at once over a real store: the plan groups identical cards, each card is claimed on its own
 * with its digest as shown, and a card that changed or was decided elsewhere meanwhile is named and left as it is.
 * Run on SQLite and PostgreSQL by the subclasses.
 */
abstract class BatchSuite {
    static final Actor OLGA = Actor.of("olga", Role.OPERATOR);
    static final Actor JONAS = Actor.of("jonas", Role.OPERATOR);

    @TempDir
    Path folder;

    abstract StoreLocation freshLocation() throws Exception;

    ServiceRig rig() throws Exception {
        List<Tool> tools = List.of(new LedgerTool(folder.resolve("ledger.txt")), new QuorumSuite.NoticeTool());
        Map<String, List<AssistantTurn>> scripts = Map.of(
                LedgerTool.ONE_PAUSE, LedgerTool.scripts().get(LedgerTool.ONE_PAUSE),
                LedgerTool.TWO_PAUSES, LedgerTool.scripts().get(LedgerTool.TWO_PAUSES),
                QuorumSuite.NoticeTool.AGENT, QuorumSuite.NoticeTool.script());
        return ServiceRig.open(freshLocation(), tools, scripts);
    }

    private String start(ServiceRig rig, String agent) {
        return rig.service.start(OLGA, agent, "Go", false).runId();
    }

    @Test
    void identicalCardsAreGroupedWithACount() throws Exception {
        try (ServiceRig rig = rig()) {
            String a = start(rig, LedgerTool.ONE_PAUSE);
            String b = start(rig, LedgerTool.TWO_PAUSES);
            String c = start(rig, LedgerTool.ONE_PAUSE);
            BatchPlan plan = new BatchDecisions(rig.service).plan(JONAS, List.of(a, b, c));
            assertThat(plan.cards()).extracting(BatchPlan.Card::runId).containsExactly(a, b, c);
            assertThat(plan.groups()).satisfiesExactly(
                    same -> {
                        assertThat(same.runIds()).containsExactly(a, c);
                        assertThat(same.describe()).isEqualTo(LedgerTool.ONE_PAUSE + ": " + LedgerTool.NAME);
                    },
                    other -> assertThat(other.count()).isEqualTo(1));
            assertThat(plan.waitingCalls()).isEqualTo(3);
        }
    }

    @Test
    void aCardThatChangedOrWasDecidedElsewhereMeanwhileStaysAsItIs() throws Exception {
        try (ServiceRig rig = rig()) {
            QuorumSuite.NoticeTool.PREVIEW.set("+ Canteen closed on Friday");
            String ledger = start(rig, LedgerTool.ONE_PAUSE);
            String notice = start(rig, QuorumSuite.NoticeTool.AGENT);
            String elsewhere = start(rig, LedgerTool.ONE_PAUSE);
            BatchDecisions batch = new BatchDecisions(rig.service);
            BatchPlan plan = batch.plan(JONAS, List.of(ledger, notice, elsewhere));

            // meanwhile: what the notice would post changes, and a colleague decides one of the cards
            QuorumSuite.NoticeTool.PREVIEW.set("+ Canteen closed all week");
            String noticeDigest = plan.cards().get(1).digest();
            assertThat(rig.service.decide(OLGA, notice, noticeDigest, List.of(CallVerdict.approve(0))))
                    .isInstanceOf(DecisionResult.Stale.class);
            ServiceRig.operators(rig.store, "lena");
            assertThat(rig.service.decide(Actor.of("lena", Role.OPERATOR), elsewhere, plan.cards().get(2).digest(),
                    List.of(CallVerdict.deny(0, "Not this one")))).isInstanceOf(DecisionResult.Done.class);

            BatchResult result = batch.decide(JONAS, plan, true, null);
            assertThat(result.done()).extracting(BatchResult.Outcome::runId).containsExactly(ledger);
            assertThat(result.changed()).extracting(BatchResult.Outcome::runId).containsExactly(notice);
            assertThat(result.decidedElsewhere()).singleElement().satisfies(outcome -> {
                assertThat(outcome.runId()).isEqualTo(elsewhere);
                assertThat(((DecisionResult.AlreadyDecided) outcome.result()).decidedBy()).isEqualTo("lena");
            });
            assertThat(rig.store.runs().find(notice).orElseThrow().status())
                    .isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(rig.store.runs().find(ledger).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(LedgerTool.executions(folder.resolve("ledger.txt"))).containsOnlyKeys(ledger + " only");
        }
    }

    @Test
    void aBatchDenialNeedsOneReasonAndEveryModelReadsIt() throws Exception {
        try (ServiceRig rig = rig()) {
            String a = start(rig, LedgerTool.ONE_PAUSE);
            String b = start(rig, LedgerTool.ONE_PAUSE);
            BatchDecisions batch = new BatchDecisions(rig.service);
            BatchPlan plan = batch.plan(JONAS, batch.matching(JONAS, LedgerTool.ONE_PAUSE, LedgerTool.NAME));
            assertThat(plan.cards()).extracting(BatchPlan.Card::runId).containsExactlyInAnyOrder(a, b);
            assertThatThrownBy(() -> batch.decide(JONAS, plan, false, " "))
                    .hasMessageContaining("needs a reason");
            assertThat(rig.store.runs().find(a).orElseThrow().status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);

            BatchResult result = batch.decide(JONAS, plan, false, "Ledger is frozen");
            assertThat(result.done()).hasSize(2);
            assertThat(rig.store.runs().find(a).orElseThrow().transcript().toString()).contains("Ledger is frozen");
            assertThat(batch.matching(JONAS, null, null)).isEmpty();
        }
    }

    @Test
    void runsThatNoLongerWaitAreNamedAsGone() throws Exception {
        try (ServiceRig rig = rig()) {
            String a = start(rig, LedgerTool.ONE_PAUSE);
            BatchDecisions batch = new BatchDecisions(rig.service);
            BatchPlan plan = batch.plan(OLGA, List.of(a, "no-such-run"));
            assertThat(plan.gone()).containsExactly("no-such-run");
            // without four eyes the initiator may approve her own run
            assertThat(batch.decide(OLGA, plan, true, null).done()).hasSize(1);
        }
    }
}
