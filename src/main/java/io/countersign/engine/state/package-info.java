/**
 * A run's state as it is stored and resumed: its {@link io.countersign.engine.state.RunStatus}, the
 * {@link io.countersign.engine.state.PausedState} a pause leaves (serialised to JSON by
 * {@link io.countersign.engine.state.PausedStateCodec}), the calls of the paused turn, the counters, the options and
 * the {@link io.countersign.engine.state.RunOutcome} a stretch of the loop ends with. Values only: the loop
 * ({@code run}) makes them, the ports carry them.
 */
package io.countersign.engine.state;
