/**
 * The run loop and its state: {@link io.countersign.engine.run.ToolLoop} drives rounds of model answers and tool
 * calls; a pause is a {@link io.countersign.engine.state.RunOutcome} whose {@link io.countersign.engine.state.PausedState}
 * serialises to JSON ({@link io.countersign.engine.state.PausedStateCodec}) and resumes in another process with a
 * person's {@link io.countersign.engine.decision.Decision}. The
 * agent and model configurations a run is started with live here too.
 */
package io.countersign.engine.run;
