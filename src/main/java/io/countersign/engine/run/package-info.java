/**
 * The run loop, at the top of the engine: {@link io.countersign.engine.run.ToolLoop} drives rounds of model answers
 * and tool calls through the gates, the invocation rules and the ports; a pause is a
 * {@link io.countersign.engine.state.RunOutcome} whose {@link io.countersign.engine.state.PausedState} resumes in
 * another process with a person's {@link io.countersign.engine.decision.Decision}. The values it works on live below
 * it ({@code decision}, {@code state}, {@code agent}, {@code chat}, {@code tool}, {@code call}).
 */
package io.countersign.engine.run;
