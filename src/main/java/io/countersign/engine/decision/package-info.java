/**
 * One person's decision on a paused run ({@link io.countersign.engine.decision.Decision}): a verdict per waiting
 * call, or the values of an input form, with who decided, when, and the digest of the card they decided. The same
 * value travels from the card through the service to the store and back to the loop that carries it out. It depends
 * on nothing of the engine but its root, so ports and the loop alike may take it.
 */
package io.countersign.engine.decision;
