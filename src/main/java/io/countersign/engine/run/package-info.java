/**
 * The run loop, at the top of the engine: {@link io.countersign.engine.run.ToolLoop} drives rounds of model answers
 * and tool calls through the gates, the invocation rules and the ports; a pause is a
 * {@link io.countersign.engine.state.RunOutcome} whose {@link io.countersign.engine.state.PausedState} resumes in
 * another process with an {@link io.countersign.engine.run.ApprovalDecision} or an
 * {@link io.countersign.engine.run.InputSubmission}. The values it works on live below it ({@code state},
 * {@code agent}, {@code chat}, {@code tool}, {@code call}).
 */
package io.countersign.engine.run;
