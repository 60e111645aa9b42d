/**
 * The engine: the tool loop and everything it decides, in plain Java. Its root holds the vocabulary every part
 * shares ({@link io.countersign.engine.Actor}, {@link io.countersign.engine.Role}, the name rules, the JSON mapper,
 * and the {@link io.countersign.engine.RetryPolicy retry policy} by which every client of a peer retries). The parts
 * below it form layers, each depending only on those before it, with no cycle between them:
 * <ol>
 *   <li>values: {@code call} (a call's context, target, decisions and history), {@code tool} (what a tool is, the
 *   registry, the admin's tool settings), {@code chat} (what crosses the model port), {@code intent} (model choice
 *   and redirects), {@code state} (a run's stored state), {@code agent} (what a run is started with),
 *   {@code event} (governance events), {@code declarative}, {@code grant}, {@code stats}, {@code webhook};</li>
 *   <li>ports: {@code port} (what adapters implement);</li>
 *   <li>policies: {@code access} (which tools may be offered and which need a human), {@code invocation} (the rules
 *   asked before every call), {@code rules} (the built-in rules and the admin's);</li>
 *   <li>the loop: {@code run}.</li>
 * </ol>
 */
package io.countersign.engine;
