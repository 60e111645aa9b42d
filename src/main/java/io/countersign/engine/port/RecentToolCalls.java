package io.countersign.engine.port;

import io.countersign.engine.call.ToolInvocationObservation;
import java.util.List;

/** Port: the tool calls the runs made lately, to preview what a change of settings would have done to them. */
@FunctionalInterface
public interface RecentToolCalls {

    /**
     * The tool calls recorded in the histories of the most recently updated runs, newest first (the runs by
     * their last update, each run's calls from its last back to its first), at most {@code limit}.
     */
    List<ToolInvocationObservation> recentCalls(int limit);
}
