/**
 * A tool call as the rules and the store see it, at the bottom of the engine: the context it runs in
 * ({@link io.countersign.engine.call.ToolExecutionContext}), the target a resolver names, a rule's decision and the
 * verdict of all rules ({@link io.countersign.engine.call.InvocationVerdict}), what was observed of a call, and the
 * run's invocation history carried through pauses. Plain values; they know no tool, model or run.
 */
package io.countersign.engine.call;
