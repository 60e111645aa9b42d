package io.countersign.service;

import io.countersign.engine.state.RunStatus;

/** A run that was started, and where it stands after its first stretch. */
public record StartedRun(String runId, RunStatus status) {
}
