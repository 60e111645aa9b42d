package io.countersign.engine.port;

import io.countersign.engine.event.GovernanceEvent;

/** Port: where governance events go. Implementations append; they never update or delete. */
@FunctionalInterface
public interface EventSink {

    void record(GovernanceEvent event);
}
