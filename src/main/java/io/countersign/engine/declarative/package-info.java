/**
 * The rules an admin writes in CEL, as values: a {@link io.countersign.engine.declarative.DeclarativeRule} (deny a
 * call or ask for a person when its condition holds), the facts of a call its condition sees
 * ({@link io.countersign.engine.declarative.CallFacts}) and a recorded call a what-if is tried over. The ports that
 * store, record and evaluate them sit above; the rule set the loop asks is
 * {@link io.countersign.engine.rules.DeclarativeRules}.
 */
package io.countersign.engine.declarative;
