package io.countersign.engine.call;

import io.countersign.engine.AppendOnlyList;
import java.util.List;

/**
 * The observations of a run's calls, kept beside the transcript and carried through pauses. {@code complete}
 * says the history is proven whole; a history that is not complete never becomes complete by appending.
 */
public record ToolInvocationHistory(List<ToolInvocationObservation> observations, boolean complete) {
    public ToolInvocationHistory {
        observations = AppendOnlyList.of(observations);
    }

    /** The history of a run that starts from a freshly assembled prompt: nothing happened yet, provably. */
    public static ToolInvocationHistory emptyComplete() {
        return new ToolInvocationHistory(List.of(), true);
    }

    /** A history that cannot be proven whole, such as one from a legacy or damaged state. */
    public static ToolInvocationHistory incomplete(List<ToolInvocationObservation> observations) {
        return new ToolInvocationHistory(observations, false);
    }

    /** This history and one more observation; the observations are shared, not copied. */
    public ToolInvocationHistory with(ToolInvocationObservation observation) {
        return new ToolInvocationHistory(AppendOnlyList.of(observations).plus(observation), complete);
    }
}
