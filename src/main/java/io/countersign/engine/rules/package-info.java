/**
 * The rules themselves, above the ports they read. The built-in invocation rules, found through
 * {@link java.util.ServiceLoader} like any other: {@link io.countersign.engine.rules.WorkspaceBoundaryRule}
 * ({@code workspace.boundary}: the file tools touch only paths inside the agent's workspace, asked before the card
 * too) and {@link io.countersign.engine.rules.RepeatAfterDenialRule} ({@code repeat.after.denial}: a call equal to
 * one already denied in the run is refused, which needs a history proven whole), with the resolver that names a file
 * call's target ({@link io.countersign.engine.rules.FileTargetResolver}); their explanations come in English and
 * German from one bundle. And the rules an admin writes ({@link io.countersign.engine.rules.DeclarativeRules}),
 * compiled once per change through the condition language port.
 */
package io.countersign.engine.rules;
