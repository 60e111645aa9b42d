package io.countersign.engine.event;

import io.countersign.engine.Names;
import java.time.Instant;
import java.util.Objects;

/**
 * One append-only governance record. It names codes and identities only: never arguments, results,
 * explanations, exception text or credentials; a tool name that is not one is recorded as a marker with its
 * length ({@link Names#recordedToolName}). Fields that do not apply are {@code null}.
 */
public record GovernanceEvent(String id, Instant time, EventType type, String reasonCode, String toolName,
                              String ruleId, String runId, String agentConfiguration, String actor, String model,
                              String detail) {
    public GovernanceEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(type, "type");
        toolName = Names.recordedToolName(toolName);
    }
}
