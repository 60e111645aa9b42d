/**
 * Ports: the narrow interfaces the engine and the use cases call and the adapters implement, above the values they
 * carry and below the policies and the loop that use them — the model ({@link io.countersign.engine.port.ChatModel}),
 * the run store split by who uses it ({@link io.countersign.engine.port.StoredRuns} for the reads,
 * {@link io.countersign.engine.port.RunStretches} for the loop's driver, {@link io.countersign.engine.port.RunClaims}
 * for deciding, {@link io.countersign.engine.port.UnfinishedRuns} after a stop,
 * {@link io.countersign.engine.port.HostedRuns} for a gateway's runs, and
 * {@link io.countersign.engine.port.RunRepository}, all of them, for the wiring), the queue
 * ({@link io.countersign.engine.port.RunQueue}), the journal ({@link io.countersign.engine.port.ExecutionJournal}),
 * events ({@link io.countersign.engine.port.EventSink}), the settings source, the people directory, change signals
 * and ids.
 */
package io.countersign.engine.port;
