/**
 * Governance events: the append-only record of what was refused and decided
 * ({@link io.countersign.engine.event.GovernanceEvent}) and the plain values a query of them takes and returns
 * (filters, pages, counts and charts), which the store answers and the console and the command line show. Events
 * never hold arguments, results, explanations or secrets.
 */
package io.countersign.engine.event;
