package io.countersign.console.main;

/**
 * A short message in the corner of the window that goes away by itself.
 *
 * @param runId   the run whose timeline the toast links to, or {@code null}
 * @param warning whether something did not go as asked (a call that failed or was refused), so it does not
 *                look like a success
 */
public record Toast(long id, String text, String runId, boolean warning) {
}
