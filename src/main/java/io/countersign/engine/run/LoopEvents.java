package io.countersign.engine.run;

import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.EventSink;
import io.countersign.engine.port.IdGenerator;
import java.time.Clock;

/** Records the loop's governance events, each stamped with an id, the time, and the run's agent and model. */
record LoopEvents(EventSink sink, Clock clock, IdGenerator ids) {
    void record(EventType type, String reason, String toolName, String ruleId, RunSegment run,
                AgentConfiguration configuration, String actor, String detail) {
        sink.record(event(type, reason, toolName, ruleId, run, configuration, actor, detail));
    }

    /** The event, stamped but not recorded: a decision's event is committed with the decision's claim. */
    GovernanceEvent event(EventType type, String reason, String toolName, String ruleId, RunSegment run,
                          AgentConfiguration configuration, String actor, String detail) {
        return new GovernanceEvent(ids.next(), clock.instant(), type, reason, toolName, ruleId, run.runId,
                configuration.name(), actor, configuration.model().name(), detail);
    }

    void invocationDenied(RunSegment run, AgentConfiguration configuration, String toolName,
                          InvocationVerdict verdict) {
        record(EventType.INVOCATION_DENIED, verdict.decision().reasonCode(), toolName, verdict.ruleIdentifier(), run,
                configuration, run.context.initiatingActor().name(), null);
    }
}
