package io.countersign.console.card;

import static io.countersign.console.ConsoleFixtures.NOW;
import static io.countersign.console.ConsoleFixtures.approvalCard;
import static io.countersign.console.ConsoleFixtures.noService;
import static io.countersign.console.ConsoleFixtures.ownFourEyesCard;
import static io.countersign.console.ConsoleFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.MovableClock;
import io.countersign.console.common.Banner;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.LiveClock;
import io.countersign.console.common.Messages;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision.CallVerdict;
import io.countersign.service.RunCard;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ApprovalCardViewModelTest {
    private final MovableClock clock = new MovableClock(NOW);
    private final LiveClock liveClock = new LiveClock(clock);

    private ApprovalCardViewModel viewModel(Actor actor) {
        return new ApprovalCardViewModel(new CardSession(noService(), actor, work -> {
        }, liveClock, Messages.forLocale(Locale.ENGLISH), new ConnectionState()));
    }

    private ApprovalCardViewModel showing(RunCard card) {
        ApprovalCardViewModel viewModel = viewModel(Actor.of("maria", Role.OPERATOR));
        viewModel.show(card);
        return viewModel;
    }

    private static RunCard twoWrites() {
        return approvalCard("run-1", List.of(write(0, "NOTES.md"), write(1, "CHANGES.md")), List.of());
    }

    @Test
    void everyCallStartsUndecidedAndTheCardCannotBeSubmittedYet() {
        ApprovalCardViewModel card = showing(twoWrites());

        assertThat(card.calls()).extracting(PendingCallItem::verdict).containsOnly(Verdict.UNDECIDED);
        assertThat(card.submitTextProperty().get()).isEqualTo("Submit (2 calls left to decide)");
        assertThat(card.canSubmitProperty().get()).isFalse();
    }

    @Test
    void submitSaysWhatWillHappen() {
        ApprovalCardViewModel card = showing(twoWrites());

        card.toggle(1);
        card.toggle(2);
        card.toggle(2);

        assertThat(card.submitTextProperty().get()).isEqualTo("Submit: 1 approve, 1 deny");
        assertThat(card.canSubmitProperty().get()).isTrue();
    }

    @Test
    void approveAllApprovesEveryCall() {
        ApprovalCardViewModel card = showing(twoWrites());

        card.approveAll();

        assertThat(card.calls()).extracting(PendingCallItem::verdict).containsOnly(Verdict.APPROVE);
        assertThat(card.submitTextProperty().get()).isEqualTo("Submit: 2 approve");
    }

    @Test
    void denyAllDeniesEveryCall() {
        ApprovalCardViewModel card = showing(twoWrites());

        card.denyAll();

        assertThat(card.calls()).extracting(PendingCallItem::verdict).containsOnly(Verdict.DENY);
        assertThat(card.submitTextProperty().get()).isEqualTo("Submit: 2 deny");
    }

    @Test
    void aToggleMovesACallBetweenApproveAndDeny() {
        ApprovalCardViewModel card = showing(twoWrites());

        card.toggle(1);
        Verdict first = card.calls().get(0).verdict();
        card.toggle(1);
        Verdict second = card.calls().get(0).verdict();
        card.toggle(1);

        assertThat(List.of(first, second, card.calls().get(0).verdict()))
                .containsExactly(Verdict.APPROVE, Verdict.DENY, Verdict.APPROVE);
    }

    @Test
    void digitsBeyondTheWaitingCallsDoNothing() {
        ApprovalCardViewModel card = showing(twoWrites());

        card.toggle(0);
        card.toggle(3);

        assertThat(card.calls()).extracting(PendingCallItem::verdict).containsOnly(Verdict.UNDECIDED);
    }

    @Test
    void deniedCallsCarryTheReasonToTheModel() {
        ApprovalCardViewModel card = showing(twoWrites());
        card.toggle(1);
        card.toggle(2);
        card.toggle(2);
        card.denyReasonProperty().set("  Wrong target ");

        assertThat(card.verdicts()).containsExactly(CallVerdict.approve(0), CallVerdict.deny(1, "Wrong target"));
    }

    @Test
    void aDenialWithoutAReasonSendsNone() {
        ApprovalCardViewModel card = showing(twoWrites());
        card.denyAll();

        assertThat(card.verdicts()).extracting(CallVerdict::reason).containsOnlyNulls();
    }

    @Test
    void theReasonPresetsAreOffered() {
        assertThat(showing(twoWrites()).reasonPresets())
                .containsExactly("Wrong target", "Not needed", "Unsafe arguments");
    }

    @Test
    void aCardWhoseGatewayStoppedSaysSoBeforeAnythingElse() {
        RunCard own = ownFourEyesCard("run-2");
        ApprovalCardViewModel card = showing(new RunCard(own.runId(), own.status(), own.agent(), own.initiator(),
                own.waitingSince(), own.prompt(), own.lastModelMessage(), own.digest(), own.pending(), own.refused(),
                own.input(), own.selfStarted(), own.fourEyes(), own.approvals(),
                "the gateway holding this host's connection stopped; nothing can be carried out"));

        assertThat(card.session().bannerProperty().get()).isEqualTo(Banner.warning("The gateway holding this"
                + " host’s connection stopped; nothing can be carried out. A decision ends the run."));
    }

    @Test
    void ownRunOnAFourEyesAgentWarnsUpFrontAndOnlyDenialsCanBeSent() {
        ApprovalCardViewModel card = showing(ownFourEyesCard("run-2"));

        assertThat(card.session().bannerProperty().get())
                .isEqualTo(Banner.warning("You started this run; someone else must approve it. You may deny it."));
        card.approveAll();
        assertThat(card.canSubmitProperty().get()).isFalse();
        assertThat(card.submitTextProperty().get()).isEqualTo("Submit: you may only deny your own run");
        card.denyAll();
        assertThat(card.canSubmitProperty().get()).isTrue();
    }

    @Test
    void aSubmitHandsOnTheVerdictsWithTheDigestAsShownAndTheReason() {
        ApprovalCardViewModel card = showing(twoWrites());
        List<HeldDecision> submitted = new ArrayList<>();
        card.setOnSubmit(submitted::add);
        card.toggle(1);
        card.toggle(2);
        card.toggle(2);
        card.denyReasonProperty().set(" Wrong target ");

        card.submit();

        assertThat(submitted).singleElement().satisfies(held -> {
            assertThat(held.runId()).isEqualTo("run-1");
            assertThat(held.digest()).isEqualTo(card.session().cardProperty().get().digest());
            assertThat(held.verdicts()).containsExactly(CallVerdict.approve(0), CallVerdict.deny(1, "Wrong target"));
            assertThat(held.reason()).isEqualTo("Wrong target");
        });
    }

    @Test
    void aDecisionTakenBackGivesItsCardTheVerdictsAgainOnlyWhenUnchanged() {
        ApprovalCardViewModel card = showing(twoWrites());
        RunCard shown = card.session().cardProperty().get();
        HeldDecision held = new HeldDecision("run-1", shown.agent(), shown.digest(),
                List.of(CallVerdict.approve(0), CallVerdict.deny(1, "Not needed")), "Not needed");

        card.restoreOnOpen(held);
        card.show(shown);

        assertThat(card.calls()).extracting(PendingCallItem::verdict).containsExactly(Verdict.APPROVE, Verdict.DENY);
        assertThat(card.denyReasonProperty().get()).isEqualTo("Not needed");
        card.show(shown);
        assertThat(card.calls()).extracting(PendingCallItem::verdict)
                .containsExactly(Verdict.UNDECIDED, Verdict.UNDECIDED);
    }

    @Test
    void aSupervisorSeesTheCardButCannotDecideIt() {
        ApprovalCardViewModel card = viewModel(Actor.of("sam", Role.SUPERVISOR));
        card.show(twoWrites());

        card.approveAll();

        assertThat(card.calls()).extracting(PendingCallItem::verdict).containsOnly(Verdict.UNDECIDED);
        assertThat(card.editableProperty().get()).isFalse();
        assertThat(card.session().bannerProperty().get().text())
                .isEqualTo("You can look at this card; deciding it needs the operator role.");
    }

    @Test
    void theWaitingTimeFollowsTheLiveClock() {
        ApprovalCardViewModel card = showing(twoWrites());
        assertThat(card.session().waitingTextProperty().get()).isEqualTo("waiting 4 min");

        clock.advance(Duration.ofMinutes(2));
        liveClock.tick();

        assertThat(card.session().waitingTextProperty().get()).isEqualTo("waiting 6 min");
    }

    @Test
    void aChangedCardSaysSoAndCanBeReloaded() {
        ApprovalCardViewModel card = showing(twoWrites());

        card.session().markChanged();

        assertThat(card.session().bannerProperty().get().reloadable()).isTrue();
    }
}
