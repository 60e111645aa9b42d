/**
 * The engine: the tool loop and everything it decides, in plain Java. Its root holds the vocabulary every part
 * shares ({@link io.countersign.engine.Actor}, {@link io.countersign.engine.Role}, the name rules, the JSON mapper,
 * and the {@link io.countersign.engine.RetryPolicy retry policy} by which every client of a peer retries); the parts
 * live below: {@code tool} (what a tool is), {@code access} (which tools may be offered and which need a human),
 * {@code invocation} (the rules asked before every call), {@code intent} (model choice and redirects), {@code run}
 * (the loop and its paused state), {@code event} (governance events), {@code port} (what adapters implement) and
 * {@code rules} (the built-in invocation rules).
 */
package io.countersign.engine;
