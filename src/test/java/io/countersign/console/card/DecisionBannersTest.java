package io.countersign.console.card;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Banner;
import io.countersign.console.common.Messages;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.state.RunStatus;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** What the console says when the service turns a decision down (on a card, or on the toast of a held one). */
class DecisionBannersTest {
    private final DecisionBanners banners = new DecisionBanners(Messages.forLocale(Locale.ENGLISH), ZoneOffset.UTC);

    private Banner of(DecisionResult result) {
        return banners.of(result).orElseThrow();
    }

    @Test
    void aStaleAnswerAsksForAReload() {
        assertThat(of(new DecisionResult.Stale("run-1", "other-digest")))
                .isEqualTo(new Banner(Banner.Kind.WARNING, "This card changed since you opened it.", true));
        assertThat(DecisionBanners.endsTheCard(new DecisionResult.Stale("run-1", "other-digest"))).isFalse();
    }

    @Test
    void aCardDecidedElsewhereSaysWhoWhenAndWhatAndEndsTheCard() {
        DecisionResult decided = new DecisionResult.AlreadyDecided(Decision.approval("run-1", "jonas",
                Instant.parse("2026-03-02T10:42:00Z"), "digest", List.of(Decision.CallVerdict.approve(0),
                        Decision.CallVerdict.approve(1))));

        assertThat(of(decided).text()).isEqualTo("Decided by jonas at 10:42 (approved 2 calls)");
        assertThat(DecisionBanners.endsTheCard(decided)).isTrue();
    }

    @Test
    void aCardItsHostCancelledSaysSoAndWhenAndEndsTheCard() {
        DecisionResult cancelled = new DecisionResult.AlreadyDecided(new Decision.Approval("run-1", "host",
                Instant.parse("2026-03-02T10:42:00Z"), "digest", "the host cancelled this call; nothing was executed",
                List.of(Decision.CallVerdict.deny(0, "the host cancelled this call"))));

        assertThat(of(cancelled))
                .isEqualTo(Banner.info("The MCP host cancelled this call at 10:42; nothing was executed."));
        assertThat(DecisionBanners.endsTheCard(cancelled)).isTrue();
    }

    @Test
    void aFourEyesAnswerSaysSomeoneElseMustApprove() {
        assertThat(of(new DecisionResult.FourEyes("run-1")).text())
                .isEqualTo("You started this run; someone else must approve it. You may deny it.");
    }

    @Test
    void aRefusalForLackOfPermissionGivesItsReason() {
        assertThat(of(new DecisionResult.NotPermitted("run-1", "you may not run fs_write yourself")))
                .isEqualTo(Banner.danger("You may not decide this card: you may not run fs_write yourself"));
    }

    @Test
    void aRunThatStoppedWaitingEndsTheCard() {
        DecisionResult notWaiting = new DecisionResult.NotWaiting("run-1", RunStatus.COMPLETED);

        assertThat(of(notWaiting).text()).isEqualTo("This run no longer waits for this decision (it is completed).");
        assertThat(DecisionBanners.endsTheCard(notWaiting)).isTrue();
    }

    @Test
    void aRunThatFailedMeanwhileSaysWhy() {
        DecisionResult notWaiting = new DecisionResult.NotWaiting("run-1", RunStatus.FAILED,
                "the gateway holding this host's connection stopped; nothing can be carried out");

        assertThat(of(notWaiting).text()).isEqualTo("This run no longer waits for this decision (it is failed):"
                + " the gateway holding this host's connection stopped; nothing can be carried out.");
        assertThat(DecisionBanners.endsTheCard(notWaiting)).isTrue();
    }

    @Test
    void aDoneDecisionHasNoBanner() {
        assertThat(banners.of(new DecisionResult.Done("run-1", RunStatus.RUNNING, 1, 1))).isEmpty();
    }
}
