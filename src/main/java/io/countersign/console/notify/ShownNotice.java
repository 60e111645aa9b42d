package io.countersign.console.notify;

import java.util.Objects;

/**
 * A notice as the desktop shows it: a one-line summary, a body in plain text (a notifier that speaks markup
 * escapes it), whether it is urgent, and the run whose card the notification's default action opens.
 */
public record ShownNotice(String runId, String summary, String body, boolean urgent) {
    public ShownNotice {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(body, "body");
    }
}
