package io.countersign.console.main;

import io.countersign.console.card.CardDone;
import io.countersign.console.common.Messages;
import io.countersign.engine.port.DecisionResult;

/**
 * The sentence a toast says after a decision or input: what the person did, each call it let run that did not go
 * through, and where the run stands. A run that goes on is not a call that succeeded, so the failures come first.
 */
final class DecisionToastText {
    /** Enough of the tool's error to see why; the timeline has the rest. */
    private static final int ERROR_LENGTH = 160;

    private DecisionToastText() {
    }

    static String of(CardDone done, Messages messages) {
        int approved = done.result().approved();
        int denied = done.result().denied();
        StringBuilder text = new StringBuilder(done.input() ? messages.get("toast.input", done.agent())
                : denied == 0 ? messages.get("toast.approved", approved, done.agent())
                : approved == 0 ? messages.get("toast.denied", denied, done.agent())
                : messages.get("toast.decided", approved, denied, done.agent()));
        for (DecisionResult.FailedCall failed : done.result().failed()) {
            text.append(' ').append(messages.get(failed.refused() ? "toast.callRefused" : "toast.callFailed",
                    failed.tool(), shortened(failed.error())));
        }
        return text.append(' ').append(messages.get("toast.status." + done.result().status().name())).toString();
    }

    /** The error cut to length and ended as a sentence, since the run's status follows it. */
    private static String shortened(String error) {
        String text = error.length() <= ERROR_LENGTH ? error : error.substring(0, ERROR_LENGTH - 1) + "…";
        return text.matches(".*[.!?…]") ? text : text + ".";
    }
}
