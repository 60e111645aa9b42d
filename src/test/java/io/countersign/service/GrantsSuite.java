package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.console.MovableClock;
import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.grant.GrantSpan;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.NetworkntSchemaValidator;
import io.countersign.tools.WriteFileTool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Edit, then approve; and standing grants: over a real store with the real file tool and the built-in rules, at a
 * clock the test moves. Run on SQLite and PostgreSQL by the subclasses.
 */
abstract class GrantsSuite {
    static final Instant START = Instant.parse("2026-12-02T09:00:00Z");
    static final Actor OLGA = Actor.of("olga", Role.OPERATOR);
    static final Actor JONAS = Actor.of("jonas", Role.OPERATOR);
    static final Actor ADA = Actor.of("ada", Role.ADMIN);
    /** Writes docs/a.md, then docs/b.md, then answers. */
    static final String SCRIBE = "scribe";
    /** As the scribe, with four eyes. */
    static final String CAREFUL = "careful";

    @TempDir
    Path folder;

    final MovableClock clock = new MovableClock(START);

    abstract StoreLocation freshLocation() throws Exception;

    private static AssistantTurn write(String id, String path) {
        ObjectNode arguments = Json.mapper().createObjectNode().put("path", path).put("content", "hello");
        return new AssistantTurn("writing", List.of(new ToolCall(id, "fs_write", arguments)), new TokenUsage(3, 2));
    }

    private static List<AssistantTurn> script() {
        return List.of(write("w1", "docs/a.md"), write("w2", "docs/b.md"),
                new AssistantTurn("Done", List.of(), new TokenUsage(3, 2)));
    }

    record Rig(Store store, DefaultRunService service, Grants grants) implements AutoCloseable {
        RunCard card(String runId) {
            return service.card(JONAS, runId).orElseThrow();
        }

        List<String> eventTypes() {
            return store.events().page(EventFilter.all(), PageRequest.first(1000)).events().stream()
                    .map(e -> e.type().code()).toList();
        }

        @Override
        public void close() {
            store.close();
        }
    }

    Rig rig() throws Exception {
        Path workspace = Files.createDirectories(folder.resolve("workspace"));
        Store store = Store.open(freshLocation());
        WriteFileTool tool = new WriteFileTool();
        for (String agent : List.of(SCRIBE, CAREFUL)) {
            ModelConfiguration model = ModelConfiguration.scripted(agent);
            store.configurations().saveModel(model);
            store.configurations().saveAgent(StoredAgentConfiguration.of(AgentConfiguration.of(agent, model,
                    List.of(tool.group())).withWorkspace(workspace.toString()).withFourEyes(agent.equals(CAREFUL)),
                    "[]"));
        }
        ServiceRig.operators(store, "olga", "jonas");
        store.users().add("ada", Set.of(Role.ADMIN), Actor.of("test-setup"));
        DefaultRunService service = DefaultRunService.overStore(store, ToolRegistry.of(tool),
                new NetworkntSchemaValidator(), ScriptedChatModel.byModel(Map.of(SCRIBE, script(), CAREFUL, script())),
                InvocationRules.discover(List.of(), List.of()), clock, IdGenerator.random(), Locale.ENGLISH);
        return new Rig(store, service, service.grants().orElseThrow());
    }

    private Path workspaceFile(String path) {
        return folder.resolve("workspace").resolve(path);
    }

    @Test
    void aGrantIsUsedAcrossRunsAndExpires() throws Exception {
        try (Rig rig = rig()) {
            String first = rig.service().start(OLGA, SCRIBE, "write", false).runId();
            RunCard card = rig.card(first);
            assertThat(rig.service().decide(JONAS, first, card.digest(),
                    List.of(Decision.CallVerdict.approve(0)), Allowance.sameArguments(GrantSpan.ONE_HOUR)))
                    .isInstanceOf(DecisionResult.Done.class);
            // the second call of the run has other arguments: it waits
            assertThat(rig.card(first).pending()).extracting(RunCard.PendingCallView::index).containsExactly(0);
            assertThat(rig.grants().list(OLGA)).singleElement().satisfies(grant -> {
                assertThat(grant.grantedBy()).isEqualTo("jonas");
                assertThat(grant.tool()).isEqualTo("fs_write");
                assertThat(grant.expiresAt()).isEqualTo(START.plus(Duration.ofHours(1)));
                assertThat(grant.uses()).isZero();
            });

            clock.advance(Duration.ofMinutes(30));
            String second = rig.service().start(OLGA, SCRIBE, "write again", false).runId();
            // docs/a.md ran on the grant; docs/b.md waits
            RunCard waiting = rig.card(second);
            assertThat(waiting.pending()).singleElement().satisfies(call ->
                    assertThat(call.argumentsJson()).contains("docs/b.md"));
            assertThat(rig.grants().list(OLGA)).singleElement().satisfies(grant ->
                    assertThat(grant.uses()).isEqualTo(1));
            assertThat(rig.eventTypes()).contains("grant_made", "approved_by_grant");

            clock.advance(Duration.ofMinutes(31));
            String third = rig.service().start(OLGA, SCRIBE, "and again", false).runId();
            assertThat(rig.card(third).pending()).singleElement().satisfies(call ->
                    assertThat(call.argumentsJson()).contains("docs/a.md"));
            assertThat(rig.grants().list(OLGA)).isEmpty();
        }
    }

    @Test
    void aFolderGrantCoversOtherFilesInTheFolderForTheRestOfTheRunOnly() throws Exception {
        try (Rig rig = rig()) {
            String run = rig.service().start(OLGA, SCRIBE, "write", false).runId();
            RunCard card = rig.card(run);
            assertThat(rig.service().decide(JONAS, run, card.digest(), List.of(Decision.CallVerdict.approve(0)),
                    new Allowance(GrantSpan.REST_OF_RUN, "src"))).isInstanceOfSatisfying(
                    DecisionResult.EditRefused.class, refused ->
                            assertThat(refused.explanation()).contains("not in the folder \"src\""));
            assertThat(rig.service().decide(JONAS, run, card.digest(), List.of(Decision.CallVerdict.approve(0)),
                    new Allowance(GrantSpan.REST_OF_RUN, "docs"))).isInstanceOfSatisfying(DecisionResult.Done.class,
                    done -> assertThat(done.status()).isEqualTo(RunStatus.COMPLETED));
            assertThat(Files.exists(workspaceFile("docs/b.md"))).isTrue();

            String other = rig.service().start(OLGA, SCRIBE, "write", false).runId();
            assertThat(rig.service().card(JONAS, other)).isPresent();
        }
    }

    @Test
    void anEditARuleRefusesIsShownAndNothingIsDecided() throws Exception {
        try (Rig rig = rig()) {
            String run = rig.service().start(OLGA, SCRIBE, "write", false).runId();
            RunCard card = rig.card(run);
            ObjectNode outside = Json.mapper().createObjectNode().put("path", "../outside.md").put("content", "x");

            assertThat(rig.service().checkEdit(JONAS, run, 0, outside)).isInstanceOf(
                    io.countersign.engine.run.EditCheck.Refused.class);
            assertThat(rig.service().decide(JONAS, run, card.digest(),
                    List.of(Decision.CallVerdict.approveEdited(0, outside))))
                    .isInstanceOfSatisfying(DecisionResult.EditRefused.class, refused -> {
                        assertThat(refused.rule()).isEqualTo("workspace.boundary");
                        assertThat(refused.index()).isZero();
                    });
            assertThat(rig.card(run).digest()).isEqualTo(card.digest());
            assertThat(rig.store().runs().find(run).orElseThrow().lastDecision()).isNull();
            assertThat(Files.exists(folder.resolve("outside.md"))).isFalse();
        }
    }

    @Test
    void anEditTheSchemaRefusesNamesWhatIsWrong() throws Exception {
        try (Rig rig = rig()) {
            String run = rig.service().start(OLGA, SCRIBE, "write", false).runId();
            RunCard card = rig.card(run);
            ObjectNode noContent = Json.mapper().createObjectNode().put("path", "docs/NOTES.md");
            assertThat(rig.service().decide(JONAS, run, card.digest(),
                    List.of(Decision.CallVerdict.approveEdited(0, noContent))))
                    .isInstanceOfSatisfying(DecisionResult.EditRefused.class, refused -> {
                        assertThat(refused.rule()).isNull();
                        assertThat(refused.explanation()).contains("fs_write").contains("content");
                    });
        }
    }

    @Test
    void theEditedArgumentsAreFinalAndTheDecisionRecordSaysWhichCallsWereEdited() throws Exception {
        try (Rig rig = rig()) {
            String run = rig.service().start(OLGA, SCRIBE, "write", false).runId();
            RunCard card = rig.card(run);
            ObjectNode edited = Json.mapper().createObjectNode().put("path", "docs/NOTES.md").put("content", "mine");
            assertThat(rig.service().checkEdit(JONAS, run, 0, edited)).isInstanceOfSatisfying(
                    io.countersign.engine.run.EditCheck.Fits.class, fits ->
                            assertThat(String.join("\n", fits.preview())).contains("mine"));
            assertThat(rig.service().decide(JONAS, run, card.digest(),
                    List.of(Decision.CallVerdict.approveEdited(0, edited))))
                    .isInstanceOf(DecisionResult.Done.class);

            assertThat(Files.readString(workspaceFile("docs/NOTES.md"))).isEqualTo("mine");
            assertThat(Files.exists(workspaceFile("docs/a.md"))).isFalse();
            Decision.Approval decision = (Decision.Approval) rig.store().runs().find(run).orElseThrow().lastDecision();
            assertThat(decision.summary()).isEqualTo("approved 1 (1 edited), denied 0");
            assertThat(decision.verdicts()).singleElement().satisfies(verdict ->
                    assertThat(verdict.arguments()).isEqualTo(edited));
        }
    }

    @Test
    void aGrantNeverApprovesItsMakersOwnRunsUnderFourEyes() throws Exception {
        try (Rig rig = rig()) {
            String olgas = rig.service().start(OLGA, CAREFUL, "write", false).runId();
            assertThat(rig.service().decide(JONAS, olgas, rig.card(olgas).digest(),
                    List.of(Decision.CallVerdict.approve(0)), Allowance.sameArguments(GrantSpan.EIGHT_HOURS)))
                    .isInstanceOf(DecisionResult.Done.class);

            String jonass = rig.service().start(JONAS, CAREFUL, "write", false).runId();
            assertThat(rig.card(jonass).pending()).extracting(RunCard.PendingCallView::argumentsJson)
                    .singleElement().asString().contains("docs/a.md");
            String again = rig.service().start(OLGA, CAREFUL, "write", false).runId();
            assertThat(rig.card(again).pending()).extracting(RunCard.PendingCallView::argumentsJson)
                    .singleElement().asString().contains("docs/b.md");
        }
    }

    @Test
    void onlyTheMakerOrAnAdminRevokesAndAnAdminSwitchesAnAgentsGrantsOff() throws Exception {
        try (Rig rig = rig()) {
            String run = rig.service().start(OLGA, SCRIBE, "write", false).runId();
            rig.service().decide(JONAS, run, rig.card(run).digest(), List.of(Decision.CallVerdict.approve(0)),
                    Allowance.sameArguments(GrantSpan.EIGHT_HOURS));
            String id = rig.grants().list(OLGA).get(0).id();
            assertThatThrownBy(() -> rig.grants().revoke(OLGA, id)).isInstanceOf(NotPermittedException.class)
                    .hasMessageContaining("made by jonas");
            assertThatThrownBy(() -> rig.grants().switchGrants(JONAS, SCRIBE, false))
                    .isInstanceOf(NotPermittedException.class);

            assertThat(rig.grants().switchGrants(ADA, SCRIBE, false)).isTrue();
            String paused = rig.service().start(OLGA, SCRIBE, "write", false).runId();
            assertThat(rig.card(paused).pending()).extracting(RunCard.PendingCallView::argumentsJson)
                    .singleElement().asString().contains("docs/a.md");
            assertThat(rig.service().decide(JONAS, paused, rig.card(paused).digest(),
                    List.of(Decision.CallVerdict.approve(0)), Allowance.sameArguments(GrantSpan.ONE_HOUR)))
                    .isInstanceOfSatisfying(DecisionResult.NotPermitted.class, refused ->
                            assertThat(refused.reason()).contains("switched the grants of agent \"scribe\" off"));
            assertThat(rig.grants().switchedOff(OLGA)).containsExactly(SCRIBE);

            assertThat(rig.grants().switchGrants(ADA, SCRIBE, true)).isTrue();
            assertThat(rig.grants().revoke(ADA, id).grantedBy()).isEqualTo("jonas");
            assertThat(rig.grants().list(OLGA)).isEmpty();
            assertThatThrownBy(() -> rig.grants().revoke(JONAS, id)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no live grant has the id");
        }
    }
}
