package io.countersign.console.main;

/**
 * A short message in the corner of the window that goes away by itself.
 *
 * @param runId the run whose timeline the toast links to, or {@code null}
 */
public record Toast(long id, String text, String runId) {
}
