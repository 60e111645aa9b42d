/**
 * Ports: the narrow interfaces the engine and the use cases call and the adapters implement — the model
 * ({@link io.countersign.engine.port.ChatModel} and the messages that cross it), the run store
 * ({@link io.countersign.engine.port.RunRepository}, {@link io.countersign.engine.port.RunQueue},
 * {@link io.countersign.engine.port.ExecutionJournal}), events ({@link io.countersign.engine.port.EventSink}), the
 * settings source, the people directory, change signals and ids.
 */
package io.countersign.engine.port;
