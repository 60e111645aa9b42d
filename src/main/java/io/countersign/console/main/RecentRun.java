package io.countersign.console.main;

import java.time.Instant;

/** A run started or decided in this window, for the Runs list. */
public record RecentRun(String runId, String agent, String what, Instant at) {
}
