package io.countersign.store;

import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import java.time.Instant;

/** Governance events for tests, with every field spelled out by name. */
final class TestEvents {
    /** How a build before schema 27 inserted an event: without the schema version it was made for. */
    static final String INSERT_BEFORE_V27 = "INSERT INTO governance_events (" + EventStore.COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private TestEvents() {
    }

    static Builder event(String id, Instant time) {
        return new Builder(id, time);
    }

    static final class Builder {
        private final String id;
        private final Instant time;
        private EventType type = EventType.INVOCATION_DENIED;
        private String reasonCode;
        private String toolName;
        private String ruleId;
        private String runId;
        private String agent;
        private String actor;
        private String model;
        private String detail;

        private Builder(String id, Instant time) {
            this.id = id;
            this.time = time;
        }

        Builder type(EventType value) {
            type = value;
            return this;
        }

        Builder reason(String value) {
            reasonCode = value;
            return this;
        }

        Builder tool(String value) {
            toolName = value;
            return this;
        }

        Builder rule(String value) {
            ruleId = value;
            return this;
        }

        Builder run(String value) {
            runId = value;
            return this;
        }

        Builder agent(String value) {
            agent = value;
            return this;
        }

        Builder actor(String value) {
            actor = value;
            return this;
        }

        Builder model(String value) {
            model = value;
            return this;
        }

        Builder detail(String value) {
            detail = value;
            return this;
        }

        GovernanceEvent build() {
            return new GovernanceEvent(id, time, type, reasonCode, toolName, ruleId, runId, agent, actor, model,
                    detail);
        }
    }
}
