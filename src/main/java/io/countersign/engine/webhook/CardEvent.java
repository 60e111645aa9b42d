package io.countersign.engine.webhook;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One change of a card, as a webhook reports it. It carries codes, identities and times only: never arguments,
 * results, previews, explanations or secrets, so nothing a model or a tool wrote leaves through a webhook.
 *
 * @param id        the stable id of the event: the same for every delivery of it, so that a receiver drops repeats
 * @param runId     the run whose card it is
 * @param agent     the run's agent
 * @param startedBy who started the run
 * @param tools     the names of the waiting calls' tools
 * @param waitingFor {@code approval} or {@code input}: what the card waits for
 * @param actor     who decided ({@code deadline} for a fallback); {@code null} for a card that starts waiting
 * @param outcome   decided: the summary ({@code approved 1, denied 0}); expired: the fallback ({@code deny} or
 *                  {@code cancel}); escalated: the role the card is shown to first; else {@code null}
 * @param deadline  when the card's deadline falls, if it has one
 * @param time      when it happened
 */
public record CardEvent(String id, CardEventType type, String runId, String agent, String startedBy,
                        List<String> tools, String waitingFor, String actor, String outcome, Instant deadline,
                        Instant time) {
    public CardEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(time, "time");
        tools = tools == null ? List.of() : List.copyOf(tools);
    }
}
