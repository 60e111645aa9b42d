package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.RunClaims;
import io.countersign.engine.state.RunStatus;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up recovery through the service: a decision committed by a process that stopped before carrying it out
 * is carried out by the next one, as the decider's own request would have been; anything that had started to
 * execute is left for a person.
 */
class ResumeInterruptedTest {
    private static final Actor OLGA = Actor.of("olga", Role.OPERATOR);
    private static final Instant DECIDED = Instant.parse("2026-03-01T12:00:00Z");

    @TempDir
    Path folder;

    private ServiceRig rig() {
        Map<String, List<AssistantTurn>> scripts = new HashMap<>(LedgerTool.scripts());
        scripts.put(NoteFormTool.AGENT, NoteFormTool.script());
        return ServiceRig.open(new StoreLocation.SqliteFile(folder.resolve("store.db")),
                List.of(new LedgerTool(ledger()), new NoteFormTool()), scripts);
    }

    private Path ledger() {
        return folder.resolve("ledger.txt");
    }

    /**
     * Starts a run of the agent in a process that commits a decision on its card, as {@code decide} does before
     * carrying it out, and then stops; returns the run's id.
     */
    private String decidedThenStopped(String agent, Function<RunCard, Decision> decision) {
        try (ServiceRig stopping = rig()) {
            String runId = stopping.service.start(OLGA, agent, "Keep a record", false).runId();
            RunCard card = stopping.service.card(OLGA, runId).orElseThrow();
            assertThat(stopping.store.runs().claim(decision.apply(card)))
                    .isInstanceOf(RunClaims.ClaimResult.Claimed.class);
            return runId;
        }
    }

    @Test
    void approvalCommittedBeforeAStopIsCarriedOutAtTheNextStart() throws Exception {
        String runId = decidedThenStopped(LedgerTool.TWO_PAUSES, card -> Decision.approval(card.runId(),
                "jonas", DECIDED, card.digest(), List.of(Decision.CallVerdict.approve(0))));

        try (ServiceRig restarted = rig()) {
            assertThat(restarted.service.resumeInterrupted()).containsExactly(new Resumption.CarriedOut(runId,
                    "jonas", new DecisionResult.Done(runId, RunStatus.WAITING_FOR_APPROVAL, 1, 0)));
        }
        assertThat(LedgerTool.executions(ledger())).containsExactly(entry(runId + " first", 1L));
    }

    @Test
    void denialCommittedBeforeAStopReachesTheModelWithItsReason() throws Exception {
        String runId = decidedThenStopped(LedgerTool.ONE_PAUSE, card -> Decision.approval(card.runId(),
                "jonas", DECIDED, card.digest(), List.of(Decision.CallVerdict.deny(0, "not this one"))));

        try (ServiceRig restarted = rig()) {
            restarted.service.resumeInterrupted();

            assertThat(restarted.service.timeline(OLGA, runId).entries()).anySatisfy(entry ->
                    assertThat(entry.body()).contains("declined by jonas: not this one"));
        }
        assertThat(LedgerTool.executions(ledger())).isEmpty();
    }

    @Test
    void inputCommittedBeforeAStopIsCarriedOutWithTheSubmittedValues() {
        String runId = decidedThenStopped(NoteFormTool.AGENT, card -> Decision.input(card.runId(), "jonas",
                DECIDED, card.digest(), new ObjectMapper().createObjectNode().put("summary", "Sync stalls")));

        try (ServiceRig restarted = rig()) {
            assertThat(restarted.service.resumeInterrupted()).containsExactly(new Resumption.CarriedOut(runId,
                    "jonas", new DecisionResult.Done(runId, RunStatus.COMPLETED, 0, 0)));
            assertThat(restarted.service.timeline(OLGA, runId).entries()).anySatisfy(entry ->
                    assertThat(entry.body()).isEqualTo("noted: Sync stalls"));
        }
    }

    @Test
    void decisionCarriedOutAgainKeepsTheOneEventItsFirstAttemptRecorded() throws Exception {
        String runId;
        try (ServiceRig stopping = rig()) {
            runId = stopping.service.start(OLGA, LedgerTool.ONE_PAUSE, "Keep a record", false).runId();
            RunCard card = stopping.service.card(OLGA, runId).orElseThrow();
            stopping.store.runs().claim(Decision.approval(runId, "jonas", DECIDED, card.digest(),
                    List.of(Decision.CallVerdict.approve(0))));
            // As the loop does when it starts to carry the decision out; the process stops before the call starts.
            stopping.store.events().record(new GovernanceEvent("first-attempt", DECIDED, EventType.APPROVAL_DECIDED,
                    null, null, null, runId, LedgerTool.ONE_PAUSE, "jonas", LedgerTool.ONE_PAUSE,
                    "approved 1, denied 0"));
        }

        try (ServiceRig restarted = rig()) {
            assertThat(restarted.service.resumeInterrupted()).singleElement()
                    .isInstanceOf(Resumption.CarriedOut.class);
            assertThat(restarted.store.events().page(EventFilter.all().withRunId(runId)
                    .ofTypes(Set.of(EventType.APPROVAL_DECIDED)), PageRequest.first(10)).events())
                    .extracting(GovernanceEvent::id).containsExactly("first-attempt");
        }
        assertThat(LedgerTool.executions(ledger())).containsExactly(entry(runId + " only", 1L));
    }

    @Test
    void runWhoseCallHadStartedIsFlaggedAndNothingRunsAgain() throws Exception {
        String runId;
        try (ServiceRig stopping = rig()) {
            runId = stopping.service.start(OLGA, LedgerTool.ONE_PAUSE, "Keep a record", false).runId();
            RunCard card = stopping.service.card(OLGA, runId).orElseThrow();
            RunClaims.ClaimResult.Claimed claimed = (RunClaims.ClaimResult.Claimed) stopping.store.runs()
                    .claim(Decision.approval(runId, "jonas", DECIDED, card.digest(),
                            List.of(Decision.CallVerdict.approve(0))));
            stopping.store.runs().journal(claimed.run().lease()).beforeExecute(runId, "a", LedgerTool.NAME);
        }

        try (ServiceRig restarted = rig()) {
            assertThat(restarted.service.resumeInterrupted()).isEmpty();
            assertThat(restarted.service.recent(OLGA, 10)).singleElement()
                    .satisfies(run -> assertThat(run.outcomeUnknown()).isTrue());
        }
        assertThat(LedgerTool.executions(ledger())).isEmpty();
    }

    @Test
    void decisionOfAProcessThatStillRunsIsLeftToIt() {
        try (ServiceRig working = rig()) {
            String runId = working.service.start(OLGA, LedgerTool.ONE_PAUSE, "Keep a record", false).runId();
            RunCard card = working.service.card(OLGA, runId).orElseThrow();
            working.store.runs().claim(Decision.approval(runId, "jonas", DECIDED, card.digest(),
                    List.of(Decision.CallVerdict.approve(0))));

            try (ServiceRig starting = rig()) {
                assertThat(starting.service.resumeInterrupted()).isEmpty();
            }
        }
    }
}
