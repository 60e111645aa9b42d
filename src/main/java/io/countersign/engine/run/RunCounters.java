package io.countersign.engine.run;

import io.countersign.engine.chat.TokenUsage;
import java.util.Objects;

/** How many rounds a run took and the tokens it used, carried through pauses as seeds for the next segment. */
public record RunCounters(int iterations, TokenUsage usage) {
    public static final RunCounters ZERO = new RunCounters(0, TokenUsage.NONE);

    public RunCounters {
        Objects.requireNonNull(usage, "usage");
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations cannot be negative, got " + iterations);
        }
    }

    public boolean isZero() {
        return iterations == 0 && usage.promptTokens() == 0 && usage.completionTokens() == 0;
    }

    RunCounters afterRound(TokenUsage roundUsage) {
        return new RunCounters(iterations + 1, usage.plus(roundUsage));
    }
}
