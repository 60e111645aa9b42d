package io.countersign.console;

import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Governance events as an installation collects them: mostly refusals by a few rules, skewed towards the
 * common reasons and tools, some decisions, spread evenly over a span of time that ends at a given instant.
 */
final class EventSeeds {
    static final String[] RULES = {"no-secrets", "workspace-only", "no-network-writes", "rate-limit", "pii-guard"};
    static final String[] REASONS = {"secret_path", "outside_workspace", "network_write", "too_many_calls",
        "personal_data"};
    static final String[] TOOLS = {"fs_read", "fs_write", "web_fetch", "fs_delete", "mail_send", "shell_run"};
    private static final String[] AGENTS = {"release-notes-bot", "web-research", "intake-form", "invoice-checker"};
    private static final String[] PEOPLE = {"maria", "jonas", "li", "amara", "tomas"};

    private final Random random;
    private final Instant start;
    private final long stepNanos;
    private long made;

    /** Events for {@code count} slots evenly spread over the span that ends at {@code end}, oldest first. */
    EventSeeds(long seed, Instant end, Duration span, long count) {
        this.random = new Random(seed);
        this.start = end.minus(span);
        this.stepNanos = Math.max(1, span.toNanos() / count);
    }

    /** The next events, oldest first. */
    List<GovernanceEvent> next(int count) {
        List<GovernanceEvent> events = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Instant time = start.plusNanos(stepNanos * made++);
            int kind = random.nextInt(10);
            String run = "run-" + (made / 7);
            String agent = AGENTS[skewed(AGENTS.length)];
            String person = PEOPLE[skewed(PEOPLE.length)];
            if (kind < 2) {
                events.add(new GovernanceEvent(UUID.randomUUID().toString(), time, EventType.APPROVAL_DECIDED, null,
                        TOOLS[skewed(TOOLS.length)], null, run, agent, person, "demo-model",
                        "approved=1 denied=0"));
            } else {
                int rule = skewed(RULES.length);
                EventType type = kind < 7 ? EventType.INVOCATION_DENIED
                        : kind < 9 ? EventType.TOOL_DENIED : EventType.WRITE_UNAPPROVED;
                events.add(new GovernanceEvent(UUID.randomUUID().toString(), time, type,
                        type == EventType.WRITE_UNAPPROVED ? "approval_missing" : REASONS[rule],
                        TOOLS[skewed(TOOLS.length)], type == EventType.INVOCATION_DENIED ? RULES[rule] : null, run,
                        agent, person, "demo-model", null));
            }
        }
        return events;
    }

    /** 0 about half the time, 1 a quarter, and so on, capped at {@code size - 1}. */
    private int skewed(int size) {
        int value = 0;
        while (value < size - 1 && random.nextBoolean()) {
            value++;
        }
        return value;
    }
}
