package io.countersign.console.main;

import java.util.Objects;

/**
 * A short message in the corner of the window that goes away by itself.
 *
 * @param runId   the run the toast's link is about, or {@code null}
 * @param warning whether something did not go as asked (a call that failed or was refused, a decision not
 *                recorded), so it does not look like a success
 * @param link    what the toast's link does
 */
public record Toast(long id, String text, String runId, boolean warning, Link link) {
    /** The one thing a toast offers to do next. */
    public enum Link {
        NONE,
        /** Opens the run's timeline. */
        TIMELINE,
        /** Opens the run's card in the inbox. */
        CARD,
        /** Takes a held decision back before it is sent; the toast lasts as long as the decision is held. */
        UNDO
    }

    public Toast {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(link, "link");
        if (link != Link.NONE && runId == null) {
            throw new IllegalArgumentException("a toast's link " + link + " needs the run it is about");
        }
    }
}
