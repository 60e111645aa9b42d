package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutionServiceTest {
    @TempDir
    Path folder;
    DemoStore demo;
    ExecutionService execution;
    final List<RunWorker.Progress> progress = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open() {
        demo = new DemoStore(folder);
        execution = demo.runtime.execution();
    }

    @AfterEach
    void close() {
        demo.close();
    }

    private RunWorker drainingWorker() {
        return execution.worker(demo.operator, RunWorker.Options.defaults().withDrain(true), progress::add);
    }

    private RunWorker.Report drain() {
        return drainingWorker().run();
    }

    private RunStatus status(String runId) {
        return demo.runtime.store().runs().find(runId).orElseThrow().status();
    }

    private Path notes() {
        return folder.resolve("demo-workspace/release-notes/NOTES.md");
    }

    @Test
    void queuedRunWaitsUntilAWorkerRunsIt() {
        StartedRun queued = execution.enqueue(demo.operator, "workspace-auditor", "What is there?", true);

        assertThat(queued.status()).isEqualTo(RunStatus.QUEUED);
        assertThat(status(queued.runId())).isEqualTo(RunStatus.QUEUED);
        RunWorker worker = drainingWorker();
        assertThat(worker.run()).isEqualTo(new RunWorker.Report(worker.id(), 1, 0, 0, 0));
        assertThat(status(queued.runId())).isEqualTo(RunStatus.COMPLETED);
        assertThat(progress).singleElement().isEqualTo(new RunWorker.Progress(queued.runId(),
                RunWorker.Progress.Kind.FIRST_STRETCH, RunStatus.COMPLETED, null));
    }

    @Test
    void queuedRunRunsUnderItsInitiatorsIdentity() {
        StartedRun queued = execution.enqueue(demo.operator, "release-notes-bot", "Tidy the notes", false);

        drain();

        assertThat(demo.runtime.runs().card(demo.admin, queued.runId()).orElseThrow().initiator())
                .isEqualTo("maria");
    }

    @Test
    void decisionLeftToAWorkerIsCommittedAtOnceAndCarriedOutByTheWorker() throws Exception {
        String runId = demo.runOf("release-notes-bot");
        String digest = demo.runtime.runs().card(demo.admin, runId).orElseThrow().digest();

        DecisionResult result = execution.decideForWorker(demo.admin, runId, digest,
                List.of(Decision.CallVerdict.approve(0)));

        assertThat(result).isEqualTo(new DecisionResult.Done(runId, RunStatus.QUEUED, 1, 0));
        assertThat(Files.readString(notes())).doesNotContain("2.4");
        assertThat(demo.runtime.runs().decide(demo.operator, runId, digest,
                List.of(Decision.CallVerdict.deny(0, "no")))).isInstanceOf(DecisionResult.AlreadyDecided.class);
        drain();
        assertThat(status(runId)).isEqualTo(RunStatus.COMPLETED);
        assertThat(Files.readString(notes())).contains("## 2.4");
    }

    @Test
    void editThatDoesNotFitItsCallIsRefusedBeforeAnythingIsQueued() {
        String runId = demo.runOf("release-notes-bot");
        String digest = demo.runtime.runs().card(demo.admin, runId).orElseThrow().digest();

        DecisionResult result = execution.decideForWorker(demo.admin, runId, digest,
                List.of(Decision.CallVerdict.approveEdited(0, new ObjectMapper().createObjectNode())));

        assertThat(result).isInstanceOfSatisfying(DecisionResult.EditRefused.class, refused -> {
            assertThat(refused.index()).isZero();
            assertThat(refused.rule()).isNull();
        });
        assertThat(status(runId)).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        assertThat(demo.runtime.runs().card(demo.admin, runId).orElseThrow().digest()).isEqualTo(digest);
    }

    @Test
    void inputLeftToAWorkerIsCarriedOutWithTheValues() {
        String runId = demo.runOf("intake-form");
        String digest = demo.runtime.runs().card(demo.admin, runId).orElseThrow().digest();
        ObjectNode values = new ObjectMapper().createObjectNode().put("summary", "Stalls")
                .put("priority", 1).put("category", "bug");

        assertThat(execution.submitInputForWorker(demo.operator, runId, digest, values))
                .isEqualTo(new DecisionResult.Done(runId, RunStatus.QUEUED, 0, 0));
        drain();

        assertThat(demo.runtime.runs().timeline(demo.admin, runId).entries()).anySatisfy(entry ->
                assertThat(entry.body()).contains("Report details: Stalls (priority 1, bug)"));
    }

    @Test
    void staleCardIsRefusedBeforeAnythingIsQueued() {
        String runId = demo.runOf("release-notes-bot");

        assertThat(execution.decideForWorker(demo.admin, runId, "0".repeat(64),
                List.of(Decision.CallVerdict.approve(0)))).isInstanceOf(DecisionResult.Stale.class);
        assertThat(status(runId)).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
    }

    @Test
    void runWhoseWorkerStoppedBeforeAnyCallIsRecoveredAndRunsOnce() {
        StartedRun queued = execution.enqueue(demo.operator, "workspace-auditor", "What is there?", true);
        Instant lapsed = Instant.now().minusSeconds(1);
        demo.runtime.store().runs().claimNext("stopped-worker", lapsed, lapsed.minusSeconds(60));

        RunWorker.Report report = drain();

        assertThat(report.recovered()).isEqualTo(1);
        assertThat(report.firstStretches()).isEqualTo(1);
        assertThat(status(queued.runId())).isEqualTo(RunStatus.COMPLETED);
        assertThat(execution.execution(demo.admin, queued.runId()).calls())
                .extracting(ToolInvocationObservation::toolName).containsExactly("fs_list", "fs_read");
    }

    @Test
    void decisionWhoseWorkerStoppedAfterRecordingItsEventKeepsThatOneEvent() {
        String runId = demo.runOf("release-notes-bot");
        String digest = demo.runtime.runs().card(demo.admin, runId).orElseThrow().digest();
        execution.decideForWorker(demo.admin, runId, digest, List.of(Decision.CallVerdict.approve(0)));
        Instant lapsed = Instant.now().minusSeconds(1);
        demo.runtime.store().runs().claimNext("stopped-worker", lapsed, lapsed.minusSeconds(60));
        // As the loop does when it starts to carry the decision out; the worker stops before the call starts.
        demo.runtime.store().events().record(new GovernanceEvent("first-attempt", lapsed, EventType.APPROVAL_DECIDED,
                null, null, null, runId, "release-notes-bot", demo.admin.name(), null, "approved 1, denied 0"));

        RunWorker.Report report = drain();

        assertThat(report.recovered()).isEqualTo(1);
        assertThat(status(runId)).isEqualTo(RunStatus.COMPLETED);
        assertThat(demo.runtime.store().events().page(EventFilter.all().withRunId(runId)
                .ofTypes(Set.of(EventType.APPROVAL_DECIDED)), PageRequest.first(10)).events())
                .extracting(GovernanceEvent::id).containsExactly("first-attempt");
    }

    @Test
    void runWhoseWorkerStoppedDuringACallIsLeftForAPersonWhoMarksItFailed() {
        StartedRun queued = execution.enqueue(demo.operator, "workspace-auditor", "What is there?", true);
        Instant lapsed = Instant.now().minusSeconds(1);
        StoredRun claimed = demo.runtime.store().runs().claimNext("stopped-worker", lapsed, lapsed.minusSeconds(60))
                .taken().orElseThrow();
        demo.runtime.store().runs().journal(claimed.lease()).beforeExecute(queued.runId(), "call-1", "fs_list");

        drain();

        StoredRun flagged = demo.runtime.store().runs().find(queued.runId()).orElseThrow();
        assertThat(flagged.unknownOutcomeCalls()).containsExactly("call-1");
        assertThatThrownBy(() -> execution.settleUnknownOutcome(demo.operator, queued.runId(), true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never paused");
        assertThat(execution.settleUnknownOutcome(demo.operator, queued.runId(), false))
                .isEqualTo(new DecisionResult.Done(queued.runId(), RunStatus.FAILED, 0, 0));
    }

    @Test
    void settlingARunWithNothingUnknownChangesNothing() {
        String runId = demo.runOf("workspace-auditor");

        assertThat(execution.settleUnknownOutcome(demo.operator, runId, false))
                .isEqualTo(new DecisionResult.NotWaiting(runId, RunStatus.COMPLETED));
    }

    @Test
    void executionShowsTheCallsOfTheHistoryAndTheTokens() {
        RunExecution run = execution.execution(demo.supervisor, demo.runOf("workspace-auditor"));

        assertThat(run.calls()).extracting(ToolInvocationObservation::toolName, ToolInvocationObservation::outcome)
                .containsExactly(tuple("fs_list", ToolInvocationObservation.Outcome.OK),
                        tuple("fs_read", ToolInvocationObservation.Outcome.OK));
        assertThat(run.historyComplete()).isTrue();
        assertThat(run.iterations()).isEqualTo(3);
        assertThat(run.promptTokens()).isEqualTo(210 + 260 + 420);
    }

    @Test
    void queuedRunOfAnAgentThatWasRemovedEndsAsFailed() {
        demo.runtime.store().runs().enqueue("orphan", "no-such-agent", "maria", "hello", false, Instant.now());

        drain();

        StoredRun run = demo.runtime.store().runs().find("orphan").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.failureReason()).isEqualTo("agent_unavailable");
    }
}
