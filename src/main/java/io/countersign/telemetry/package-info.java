/**
 * OpenTelemetry for runs: the engine's {@link io.countersign.engine.port.RunTelemetry} as spans after the GenAI
 * semantic conventions (an {@code invoke_agent} span per stretch of a run, {@code chat} per model call,
 * {@code execute_tool} per executed call, and the wait for a person between them) and as metrics, exported over OTLP
 * when the standard {@code OTEL_*} variables configure it. See docs/telemetry.md.
 */
package io.countersign.telemetry;
