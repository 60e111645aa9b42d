package io.countersign.engine.agent;

import io.countersign.engine.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The deadline a waiting run's card has, set when it paused from its agent's {@link DecisionDeadlines}.
 *
 * @param due            when the fallback applies
 * @param span           the configured span, by which an escalation or an Extend moves {@code due} once each
 * @param action         the fallback
 * @param escalated      the card was escalated (its first deadline passed)
 * @param escalationRole who sees it first once escalated
 * @param extendedBy     who extended it, or {@code null}
 * @param extendedAt     when, or {@code null}
 */
public record RunDeadline(Instant due, Duration span, DeadlineAction action, boolean escalated, Role escalationRole,
                          String extendedBy, Instant extendedAt) {
    public RunDeadline {
        Objects.requireNonNull(due, "due");
        Objects.requireNonNull(span, "span");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(escalationRole, "escalationRole");
    }

    /** The time left at {@code now}; zero once overdue. */
    public Duration left(Instant now) {
        Duration left = Duration.between(now, due);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** The share of the span left at {@code now}, from 0 (overdue) to 1 (or more, after an extension). */
    public double shareLeft(Instant now) {
        return (double) left(now).toMillis() / span.toMillis();
    }

    public boolean extended() {
        return extendedBy != null;
    }

    /** The time left as people read it: {@code 1h 05m}, {@code 4m 09s}, {@code 12s}, or {@code overdue}. */
    public String describeLeft(Instant now) {
        long seconds = left(now).getSeconds();
        if (seconds <= 0) {
            return "overdue";
        }
        if (seconds >= 3600) {
            return String.format("%dh %02dm", seconds / 3600, seconds % 3600 / 60);
        }
        return seconds >= 60 ? String.format("%dm %02ds", seconds / 60, seconds % 60) : seconds + "s";
    }
}
