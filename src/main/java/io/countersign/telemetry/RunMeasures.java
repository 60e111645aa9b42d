package io.countersign.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Countersign's metrics: cards waiting by agent, how long decisions take by outcome, refusals by rule and reason,
 * executions by outcome, calls whose outcome is unknown, and webhook deliveries that failed.
 */
final class RunMeasures {
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("countersign.outcome");
    /** Made once: an execution is counted on the run's thread. */
    private static final Map<String, Attributes> EXECUTIONS = Map.of("ok", Attributes.of(OUTCOME, "ok"),
            "failed", Attributes.of(OUTCOME, "failed"), "unknown", Attributes.of(OUTCOME, "unknown"));
    /** Decisions take seconds to days: the buckets follow, unlike the SDK's default ones for milliseconds. */
    private static final List<Double> DECISION_BUCKETS = List.of(1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 3_600.0,
            14_400.0, 86_400.0, 259_200.0);

    private final Meter meter;
    private final DoubleHistogram decisions;
    private final LongCounter refusals;
    private final LongCounter executions;
    private final LongCounter unknown;
    private final LongCounter webhookFailures;

    RunMeasures(Meter meter) {
        this.meter = meter;
        this.decisions = meter.histogramBuilder("countersign.decision.duration").setUnit("s")
                .setDescription("How long a card waited for its decision, by outcome")
                .setExplicitBucketBoundariesAdvice(DECISION_BUCKETS).build();
        this.refusals = meter.counterBuilder("countersign.refusals")
                .setDescription("Calls refused by an invocation rule or an access gate, by rule and reason").build();
        this.executions = meter.counterBuilder("countersign.executions")
                .setDescription("Calls whose tool executed, by outcome").build();
        this.unknown = meter.counterBuilder("countersign.executions.unknown")
                .setDescription("Calls whose outcome nobody can tell, left for a person to settle").build();
        this.webhookFailures = meter.counterBuilder("countersign.webhook.failures")
                .setDescription("Webhook deliveries that failed and will be tried again").build();
    }

    void decided(String outcome, Duration waited) {
        decisions.record(waited.toNanos() / 1e9, Attributes.of(OUTCOME, outcome));
    }

    void refused(String rule, String reason) {
        refusals.add(1, Attributes.of(RunTraces.RULE, rule, RunTraces.REASON, reason));
    }

    void executed(String outcome) {
        executions.add(1, EXECUTIONS.getOrDefault(outcome, Attributes.of(OUTCOME, outcome)));
        if (outcome.equals("unknown")) {
            unknown.add(1);
        }
    }

    void webhookFailed() {
        webhookFailures.add(1);
    }

    /** Cards waiting now, by agent, read from {@code waiting} each time the metrics are collected. */
    void watchWaiting(Supplier<Map<String, Long>> waiting) {
        meter.gaugeBuilder("countersign.cards.waiting").ofLongs()
                .setDescription("Runs waiting for a person's decision or input, by agent")
                .buildWithCallback(measurement -> waiting.get().forEach((agent, count) ->
                        measurement.record(count, Attributes.of(RunTraces.AGENT, agent))));
    }
}
