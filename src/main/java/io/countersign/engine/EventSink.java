package io.countersign.engine;

/** Port: where governance events go. Implementations append; they never update or delete. */
@FunctionalInterface
public interface EventSink {

    void record(GovernanceEvent event);
}
