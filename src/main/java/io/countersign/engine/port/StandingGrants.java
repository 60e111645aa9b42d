package io.countersign.engine.port;

import io.countersign.engine.grant.Grant;
import java.time.Instant;
import java.util.List;

/**
 * Port: the standing grants the loop's approval scan consults. An adapter returns nothing for an agent whose
 * grants an admin switched off, and nothing for grants whose granter may no longer decide.
 */
public interface StandingGrants {
    /** No grants: every call that needs approval pauses. */
    StandingGrants NONE = new StandingGrants() {
        @Override
        public List<Grant> live(String agent, String tool, Instant now) {
            return List.of();
        }

        @Override
        public void used(String grantId, Instant at) {
        }
    };

    /** The grants of this agent for this tool that are live at {@code now}, oldest first. */
    List<Grant> live(String agent, String tool, Instant now);

    /** Counts one call the grant approved. */
    void used(String grantId, Instant at);
}
