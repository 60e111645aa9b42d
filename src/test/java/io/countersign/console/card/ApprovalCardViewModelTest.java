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
import io.countersign.engine.run.ApprovalDecision.CallVerdict;
import io.countersign.engine.run.RunStatus;
import io.countersign.service.DecisionResult;
import io.countersign.service.RunCard;
import java.time.Duration;
import java.time.Instant;
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
    void aStaleAnswerAsksForAReload() {
        ApprovalCardViewModel card = showing(twoWrites());

        card.apply(new DecisionResult.Stale("run-1", "other-digest"));

        assertThat(card.session().bannerProperty().get())
                .isEqualTo(new Banner(Banner.Kind.WARNING, "This card changed since you opened it.", true));
        assertThat(card.session().finishedProperty().get()).isFalse();
    }

    @Test
    void aCardDecidedElsewhereSaysWhoAndWhenAndTurnsReadOnly() {
        ApprovalCardViewModel card = showing(twoWrites());
        card.approveAll();

        card.apply(new DecisionResult.AlreadyDecided("run-1", "jonas", Instant.parse("2026-03-02T10:42:00Z"),
                "approved 2, denied 0", 2, 0));

        assertThat(card.session().bannerProperty().get().text())
                .isEqualTo("Decided by jonas at 10:42 (approved 2 calls)");
        assertThat(card.editableProperty().get()).isFalse();
        assertThat(card.canSubmitProperty().get()).isFalse();
        card.toggle(1);
        assertThat(card.calls().get(0).verdict()).isEqualTo(Verdict.APPROVE);
    }

    @Test
    void aFourEyesAnswerSaysSomeoneElseMustApprove() {
        ApprovalCardViewModel card = showing(twoWrites());

        card.apply(new DecisionResult.FourEyes("run-1"));

        assertThat(card.session().bannerProperty().get().text())
                .isEqualTo("You started this run; someone else must approve it. You may deny it.");
    }

    @Test
    void aRefusalForLackOfPermissionGivesItsReason() {
        ApprovalCardViewModel card = showing(twoWrites());

        card.apply(new DecisionResult.NotPermitted("run-1", "you may not run fs_write yourself"));

        assertThat(card.session().bannerProperty().get())
                .isEqualTo(Banner.danger("You may not decide this card: you may not run fs_write yourself"));
    }

    @Test
    void aRunThatStoppedWaitingEndsTheCard() {
        ApprovalCardViewModel card = showing(twoWrites());

        card.apply(new DecisionResult.NotWaiting("run-1", RunStatus.COMPLETED));

        assertThat(card.session().bannerProperty().get().text())
                .isEqualTo("This run no longer waits for this decision (it is completed).");
        assertThat(card.session().finishedProperty().get()).isTrue();
    }

    @Test
    void aDoneDecisionHandsTheCardOn() {
        ApprovalCardViewModel card = showing(twoWrites());
        List<CardDone> done = new ArrayList<>();
        card.setOnDone(done::add);

        card.apply(new DecisionResult.Done("run-1", RunStatus.RUNNING, 1, 1));

        assertThat(done).containsExactly(new CardDone("run-1", "release-notes-bot",
                new DecisionResult.Done("run-1", RunStatus.RUNNING, 1, 1), false));
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
