/**
 * What a run is started with: the {@link io.countersign.engine.agent.AgentConfiguration} (model, tool groups,
 * workspace, intent policies, four eyes), how many approvals a call needs
 * ({@link io.countersign.engine.agent.ApprovalQuorum}), and the decision deadlines with the deadline they give a
 * waiting run ({@link io.countersign.engine.agent.RunDeadline}). Values only, above a run's state and the intent
 * policies they hold.
 */
package io.countersign.engine.agent;
