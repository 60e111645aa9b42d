/**
 * The CEL adapter behind {@link io.countersign.engine.port.ConditionLanguage}: declarative rules' conditions are
 * compiled and evaluated with {@code dev.cel:cel}, only here.
 */
package io.countersign.cel;
