package io.countersign.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.service.NotPermittedException;
import io.countersign.service.Resumption;
import io.countersign.service.RunCard;
import io.countersign.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole runtime over a real SQLite file: the demo workspace, the inbox, cards and decisions. */
class DemoRuntimeTest {
    @TempDir
    Path folder;
    private CountersignRuntime runtime;
    private Actor admin;

    @BeforeEach
    void open() {
        runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")));
        admin = runtime.localUser();
        assertThat(runtime.ensureDemo(folder)).isTrue();
    }

    @AfterEach
    void close() {
        runtime.close();
    }

    private WaitingRun waiting(String agent) {
        return runtime.runs().inbox(admin).stream().filter(run -> run.agent().equals(agent)).findFirst()
                .orElseThrow();
    }

    private RunCard card(String agent) {
        return runtime.runs().card(admin, waiting(agent).runId()).orElseThrow();
    }

    @Test
    void theDemoLeavesThreeRunsWaitingOldestFirst() {
        List<WaitingRun> inbox = runtime.runs().inbox(admin);
        assertThat(inbox).extracting(WaitingRun::agent)
                .containsExactly("release-notes-bot", "intake-form", "web-research");
        assertThat(inbox.get(0).refusedCount()).isEqualTo(1);
        assertThat(inbox.get(0).hasWrite()).isTrue();
        assertThat(inbox.get(1).status()).isEqualTo(RunStatus.WAITING_FOR_INPUT);
        assertThat(runtime.ensureDemo(folder)).as("a store with agents gets no second demo").isFalse();
    }

    @Test
    void theReleaseNotesCardShowsTheDiffAndTheRefusedDeleteWithItsExplanation() {
        RunCard card = card("release-notes-bot");
        assertThat(card.pending()).singleElement().satisfies(call -> {
            assertThat(call.tool()).isEqualTo("fs_write");
            assertThat(call.preview()).contains("+## 2.4 — faster sync");
            assertThat(call.target().identifier()).isEqualTo("NOTES.md");
        });
        assertThat(card.refused()).singleElement().satisfies(call -> {
            assertThat(call.rule()).isEqualTo("workspace.boundary");
            assertThat(call.reason()).isEqualTo("outside_workspace");
            assertThat(call.explanation()).contains("release-notes");
        });
        assertThat(card.lastModelMessage()).contains("rewrite NOTES.md");
    }

    @Test
    void approvingTheCardWritesTheFileAndTheRunCompletes() throws Exception {
        RunCard card = card("release-notes-bot");
        DecisionResult result = runtime.runs().decide(admin, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)));
        assertThat(result).isEqualTo(new DecisionResult.Done(card.runId(), RunStatus.COMPLETED, 1, 0));
        assertThat(Files.readString(folder.resolve("demo-workspace/release-notes/NOTES.md"))).contains("## 2.4");
        assertThat(Files.exists(folder.resolve("demo-workspace/old-draft.md"))).isTrue();
        assertThat(runtime.runs().inbox(admin)).extracting(WaitingRun::agent)
                .doesNotContain("release-notes-bot");
    }

    @Test
    void aDenialReasonReachesTheTranscript() {
        RunCard card = card("release-notes-bot");
        runtime.runs().decide(admin, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.deny(0, "Wrong target")));
        var timeline = runtime.runs().timeline(admin, card.runId());
        assertThat(timeline.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(timeline.entries()).anySatisfy(entry -> assertThat(entry.body())
                .contains("declined by " + admin.name() + ": Wrong target"));
    }

    @Test
    void theTimelineShowsTheRefusalAndTheDecisionBetweenTheRoundsTheySeparate() {
        RunCard card = card("release-notes-bot");
        runtime.runs().decide(admin, card.runId(), card.digest(), List.of(Decision.CallVerdict.approve(0)));

        var entries = runtime.runs().timeline(admin, card.runId()).entries();

        assertThat(entries).extracting(entry -> entry.kind() + " " + entry.title()).containsExactly(
                "SYSTEM System prompt",
                "USER " + card.initiator(),
                "ASSISTANT Model",
                "TOOL_CALL fs_write",
                "TOOL_CALL fs_delete",
                "EVENT invocation_denied · fs_delete",
                "DECISION approval_decided",
                "TOOL_RESULT fs_write",
                "TOOL_RESULT fs_delete",
                "ASSISTANT Model");
    }

    @Test
    void aStaleDigestIsRefusedAndNothingRuns() throws Exception {
        RunCard card = card("release-notes-bot");
        DecisionResult result = runtime.runs().decide(admin, card.runId(), "0".repeat(64),
                List.of(Decision.CallVerdict.approve(0)));
        assertThat(result).isEqualTo(new DecisionResult.Stale(card.runId(), card.digest()));
        assertThat(Files.readString(folder.resolve("demo-workspace/release-notes/NOTES.md"))).doesNotContain("2.4");
    }

    @Test
    void aSecondDeciderIsToldWhoDecided() {
        RunCard card = card("release-notes-bot");
        runtime.runs().decide(admin, card.runId(), card.digest(), List.of(Decision.CallVerdict.approve(0)));
        Actor jonas = runtime.store().users().find("jonas").orElseThrow();
        DecisionResult late = runtime.runs().decide(jonas, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.deny(0, "no")));
        assertThat(late).isInstanceOfSatisfying(DecisionResult.AlreadyDecided.class, decided -> {
            assertThat(decided.decidedBy()).isEqualTo(admin.name());
            assertThat(decided.summary()).isEqualTo("approved 1, denied 0");
            assertThat(List.of(decided.approved(), decided.denied())).containsExactly(1, 0);
        });
    }

    @Test
    void anInputCardRefusesAWrongValueThenTakesARightOne() {
        RunCard card = card("intake-form");
        assertThat(card.input().fields()).extracting(f -> f.name()).containsExactly("summary", "priority",
                "category");
        assertThat(card.input().modelGuesses()).containsEntry("summary", "Sync stalls on large folders");
        ObjectMapper json = new ObjectMapper();
        ObjectNode wrong = json.createObjectNode().put("summary", "Stalls").put("priority", "high")
                .put("category", "bug");
        assertThat(runtime.runs().submitInput(admin, card.runId(), card.digest(), wrong))
                .isInstanceOfSatisfying(DecisionResult.InvalidInput.class, invalid ->
                        assertThat(invalid.errors()).extracting(e -> e.field()).containsExactly("priority"));
        ObjectNode right = json.createObjectNode().put("summary", "Stalls").put("priority", 1).put("category", "bug");
        assertThat(runtime.runs().submitInput(admin, card.runId(), card.digest(), right))
                .isEqualTo(new DecisionResult.Done(card.runId(), RunStatus.COMPLETED, 0, 0));
        assertThat(runtime.runs().timeline(admin, card.runId()).entries()).anySatisfy(entry ->
                assertThat(entry.body()).contains("Report details: Stalls (priority 1, bug)"));
    }

    @Test
    void fourEyesLetsTheInitiatorDenyButNotApprove() {
        Actor maria = runtime.store().users().find("maria").orElseThrow();
        var stored = runtime.store().configurations().findAgent("release-notes-bot").orElseThrow();
        runtime.store().configurations().saveAgent(new io.countersign.store.StoredAgentConfiguration(stored.name(),
                stored.systemPrompt(), stored.modelName(), stored.toolGroups(), stored.allowedTools(),
                stored.workspace(), stored.toolCallPolicies(), stored.maxRounds(), true));
        RunCard card = runtime.runs().card(maria, waiting("release-notes-bot").runId()).orElseThrow();
        assertThat(card.selfStarted()).isTrue();
        assertThat(card.fourEyes()).isTrue();
        assertThat(runtime.runs().decide(maria, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)))).isEqualTo(new DecisionResult.FourEyes(card.runId()));
        assertThat(runtime.runs().decide(maria, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.deny(0, "not yet")))).isInstanceOf(DecisionResult.Done.class);
    }

    @Test
    void aSupervisorMayNotDecideAndAnUnknownUserMayDoNothing() {
        Actor supervisor = runtime.store().users().add("sam", Set.of(Role.SUPERVISOR), admin);
        RunCard card = card("release-notes-bot");
        assertThat(runtime.runs().decide(supervisor, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)))).isInstanceOf(DecisionResult.NotPermitted.class);
        Actor nobody = new Actor("nobody", Set.of());
        assertThatThrownBy(() -> runtime.runs().inbox(nobody)).isInstanceOf(NotPermittedException.class)
                .hasMessageContaining("nobody (no role) may not view inbox");
        assertThat(runtime.runs().timeline(supervisor, card.runId()).entries()).isNotEmpty();
    }

    @Test
    void theUnattendedAuditFinishedAndItsTimelineShowsTheReads() {
        String runId = runtime.runs().recent(admin, 10).stream().filter(run -> run.agent().equals(
                "workspace-auditor")).findFirst().orElseThrow().runId();
        var timeline = runtime.runs().timeline(admin, runId);
        assertThat(timeline.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(timeline.entries()).extracting(e -> e.title()).contains("fs_list", "fs_read");
    }

    @Test
    void aReopenedStoreKeepsTheWaitingRunsAndTheirCards() {
        RunCard before = card("release-notes-bot");
        runtime.close();
        runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")));
        RunCard after = runtime.runs().card(admin, before.runId()).orElseThrow();
        assertThat(after).isEqualTo(before);
        assertThat(runtime.runs().decide(admin, after.runId(), after.digest(),
                List.of(Decision.CallVerdict.approve(0)))).isInstanceOf(DecisionResult.Done.class);
    }

    @Test
    void decisionCommittedBeforeAStopIsCarriedOutWhenTheRuntimeOpensAgain() throws Exception {
        RunCard card = card("release-notes-bot");
        runtime.store().runs().claim(Decision.approval(card.runId(), admin.name(), Instant.now(),
                card.digest(), List.of(Decision.CallVerdict.approve(0))));
        runtime.close();

        runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")));

        assertThat(runtime.resumedAtStart()).containsExactly(new Resumption.CarriedOut(card.runId(), admin.name(),
                new DecisionResult.Done(card.runId(), RunStatus.COMPLETED, 1, 0)));
        assertThat(Files.readString(folder.resolve("demo-workspace/release-notes/NOTES.md"))).contains("## 2.4");
    }
}
