package io.countersign.console.card;

import io.countersign.console.common.Banner;
import io.countersign.console.common.Messages;
import io.countersign.engine.port.ApprovalProgress;
import io.countersign.engine.port.DecisionResult;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a card shows when the service turns a decision down. Shared by the approval and the input card; a
 * decision that was done has no banner (the card leaves), and the input card shows invalid input under its
 * fields instead.
 */
public final class DecisionBanners {
    private static final DateTimeFormatter TIME_OF_DAY = DateTimeFormatter.ofPattern("HH:mm");

    private final Messages messages;
    private final ZoneId zone;

    public DecisionBanners(Messages messages, ZoneId zone) {
        this.messages = messages;
        this.zone = zone;
    }

    /** The banner for a refused decision, or empty for a decision that was done. */
    public Optional<Banner> of(DecisionResult result) {
        if (result instanceof DecisionResult.Stale) {
            return Optional.of(new Banner(Banner.Kind.WARNING, messages.get("card.stale"), true));
        }
        if (result instanceof DecisionResult.AlreadyDecided decided && decided.cancelledByHost()) {
            return Optional.of(Banner.info(messages.get("card.hostCancelled", time(decided))));
        }
        if (result instanceof DecisionResult.AlreadyDecided decided) {
            String what = decided.approved() + decided.denied() == 0 ? messages.get("card.decided.input")
                    : decided.denied() == 0 ? messages.get("card.decided.approved", decided.approved())
                    : decided.approved() == 0 ? messages.get("card.decided.denied", decided.denied())
                    : messages.get("card.decided.both", decided.approved(), decided.denied());
            return Optional.of(Banner.info(messages.get("card.decidedBy", decided.decidedBy(), time(decided), what)));
        }
        if (result instanceof DecisionResult.PartlyApproved partly) {
            return Optional.of(Banner.info(messages.get("card.approvals.counted", approvals(partly.progress()))));
        }
        if (result instanceof DecisionResult.FourEyes) {
            return Optional.of(Banner.warning(messages.get("card.fourEyes")));
        }
        if (result instanceof DecisionResult.NotPermitted notPermitted) {
            return Optional.of(Banner.danger(messages.get("card.notPermitted", notPermitted.reason())));
        }
        if (result instanceof DecisionResult.ServersNotConnected notConnected) {
            return Optional.of(Banner.warning(messages.get("card.serversNotConnected",
                    String.join(", ", notConnected.servers()))));
        }
        if (result instanceof DecisionResult.NotWaiting notWaiting) {
            if (notWaiting.status() == null) {
                return Optional.of(Banner.info(messages.get("card.gone")));
            }
            String status = notWaiting.status().code().replace('_', ' ');
            return Optional.of(Banner.info(notWaiting.failure() == null ? messages.get("card.notWaiting", status)
                    : messages.get("card.notWaitingBecause", status, notWaiting.failure())));
        }
        if (result instanceof DecisionResult.EditRefused refused) {
            return Optional.of(Banner.danger(messages.get("card.editRefused", refused.index(),
                    refused.explanation())));
        }
        if (result instanceof DecisionResult.InvalidInput invalid) {
            return Optional.of(Banner.danger(messages.get("card.invalidInput", String.join("; ",
                    invalid.errors().stream().map(error -> error.message()).toList()))));
        }
        return Optional.empty();
    }

    /** "1 of 2 approvals — approved by maria at 10:42", or what a card that needs several and has none says. */
    public String approvals(ApprovalProgress progress) {
        if (progress.approvals().isEmpty()) {
            return messages.get("card.approvals.none", progress.required());
        }
        String by = progress.approvals().stream().map(approver -> messages.get("card.approvals.by", approver.name(),
                TIME_OF_DAY.format(approver.at().atZone(zone)))).collect(Collectors.joining(", "));
        return messages.get("card.approvals.some", progress.approvals().size(), progress.required(), by);
    }

    /** Whether the card can no longer be decided after this answer. */
    public static boolean endsTheCard(DecisionResult result) {
        return result instanceof DecisionResult.AlreadyDecided || result instanceof DecisionResult.NotWaiting;
    }

    private String time(DecisionResult.AlreadyDecided decided) {
        return decided.decidedAt() == null ? "?" : TIME_OF_DAY.format(decided.decidedAt().atZone(zone));
    }
}
