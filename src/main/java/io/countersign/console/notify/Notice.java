package io.countersign.console.notify;

import java.util.List;
import java.util.Objects;

/**
 * What a desktop notification says about one waiting card: why it is sent, the agent, the tools that wait, who
 * started the run and how long is left. Never a call's arguments, a preview or a rule's explanation: a
 * notification shows on a screen others may see, and lands in the desktop's notification history.
 *
 * @param tools     the tools that wait, each named once (the first call's tool alone until the card was read)
 * @param initiator who started the run, or {@code null} when the store does not say
 * @param left      the time left before the card's deadline as people read it ({@code 4m 09s}), or {@code null}
 *                  when it has none
 */
public record Notice(String runId, Reason reason, boolean input, String agent, List<String> tools, String initiator,
                     String left) {
    /** Why a card is announced. */
    public enum Reason {
        /** The card started waiting. */
        WAITING,
        /** The card was escalated to a role the person holds. */
        ESCALATED,
        /** The card's deadline is near: under 10 % of its span or under a minute left. */
        DEADLINE_NEAR
    }

    public Notice {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(reason, "reason");
        agent = agent == null ? "" : agent;
        tools = List.copyOf(tools);
    }

    /** The same notice naming these tools. */
    public Notice withTools(List<String> named) {
        return new Notice(runId, reason, input, agent, named, initiator, left);
    }
}
