package io.countersign.telemetry;

import static io.countersign.testing.OtlpReceiver.named;
import static io.countersign.testing.OtlpReceiver.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.port.PersonWait;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.StoreChanges;
import io.countersign.engine.port.TelemetrySettings;
import io.countersign.testing.OtlpReceiver;
import io.opentelemetry.proto.trace.v1.Span;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Telemetry is off until an endpoint is configured, by the environment or the stored settings, and settings it cannot
 * use leave it off; the environment wins over the stored settings. A process's live telemetry follows the stored
 * settings, from the first report or from its start.
 */
class TelemetryTest {

    @Test
    void offWithoutAnEndpoint() {
        Telemetry telemetry = Telemetry.fromEnvironment(Map.of("OTEL_SERVICE_NAME", "countersign"));
        assertThat(telemetry.on()).isFalse();
        assertThat(telemetry.runs()).isSameAs(RunTelemetry.NONE);
    }

    @Test
    void offWhenTheSdkIsDisabled() {
        assertThat(Telemetry.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_SDK_DISABLED", "true")).on()).isFalse();
    }

    @Test
    void offWhenTheSettingsAreNotUsable() {
        assertThat(Telemetry.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_TRACES_SAMPLER", "sometimes")).on()).isFalse();
    }

    @Test
    void onWithAnEndpoint() {
        try (Telemetry telemetry = Telemetry.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://127.0.0.1:4318"))) {
            assertThat(telemetry.on()).isTrue();
            assertThat(telemetry.runs()).isNotSameAs(RunTelemetry.NONE);
        }
    }

    @Test
    void aRunsTraceIdIsTheSameInEveryProcess() {
        assertThat(RunTraceIds.runRoot("run-1")).isEqualTo(RunTraceIds.runRoot("run-1"));
        assertThat(RunTraceIds.runRoot("run-1").getTraceId()).isNotEqualTo(RunTraceIds.runRoot("run-2").getTraceId());
        assertThat(RunTraceIds.runRoot("run-1").isValid()).isTrue();
    }

    @Test
    void storedSettingsExportWithTheirServiceNameAndResolvedHeaders() {
        try (OtlpReceiver collector = new OtlpReceiver()) {
            TelemetrySettings stored = new TelemetrySettings(collector.endpoint(),
                    Map.of("authorization", "env:OTLP_TOKEN"), "countersign-desk", 1.0, false);
            try (Telemetry telemetry = Telemetry.configured(Map.of("OTLP_TOKEN", "t0k"),
                    stored)) {
                assertThat(telemetry.on()).isTrue();
                telemetry.runs().waited(wait("deny"));
            }
            Span wait = named(collector.spans(), "countersign.wait_for_person").get(0);
            assertThat(text(wait, "countersign.deadline.due")).isEqualTo("2026-12-02T09:30:00Z");
            assertThat(text(wait, "countersign.deadline.fallback")).isEqualTo("deny");
            assertThat(text(wait, "countersign.decision.outcome")).isEqualTo("expired");
            assertThat(collector.everything()).contains("countersign-desk");
            assertThat(collector.headers("authorization")).isNotEmpty().containsOnly("t0k");
        }
    }

    @Test
    void theEnvironmentWinsOverTheStoredSettings() {
        TelemetrySettings stored = new TelemetrySettings("http://127.0.0.1:4318", Map.of(), "countersign", 1.0,
                false);
        assertThat(Telemetry.configured(Map.of("OTEL_SDK_DISABLED", "true"), stored).on()).isFalse();
        try (Telemetry telemetry = Telemetry.configured(Map.of(), stored)) {
            assertThat(telemetry.on()).isTrue();
        }
        assertThat(Telemetry.configured(Map.of(), TelemetrySettings.NONE).on()).isFalse();
    }

    @Test
    void aLiveTelemetryFollowsTheStoredSettings() {
        SettingsFeed feed = new SettingsFeed(TelemetrySettings.NONE);
        try (LiveTelemetry live = new LiveTelemetry(Map.of(), feed::read, feed)) {
            assertThat(live.on()).isFalse();
            feed.change(new TelemetrySettings("http://127.0.0.1:4318", Map.of(), "countersign", 0.5, false));
            assertThat(live.on()).isTrue();
            feed.change(TelemetrySettings.NONE);
            assertThat(live.on()).isFalse();
        }
        assertThat(feed.listeners).isEmpty();
    }

    @Test
    void aLiveTelemetryReadsNothingUntilSomethingReportsThenExportsAsTheSettingsSayThen() {
        try (OtlpReceiver collector = new OtlpReceiver()) {
            SettingsFeed feed = new SettingsFeed(TelemetrySettings.NONE);
            try (LiveTelemetry live = new LiveTelemetry(Map.of(), feed::read, feed)) {
                live.watchWaiting(() -> Map.of("ledger", 2L));
                assertThat(feed.reads.get()).isZero();
                assertThat(feed.listeners).isEmpty();

                // turned on before anything reported: the first report reads the settings and exports
                feed.change(new TelemetrySettings(collector.endpoint(), Map.of(), "countersign-desk", 1.0, false));
                assertThat(feed.reads.get()).isZero();
                live.runs().waited(wait("deny"));
                assertThat(feed.reads.get()).isEqualTo(1);
                assertThat(feed.listeners).hasSize(1);
            }
            assertThat(named(collector.spans(), "countersign.wait_for_person")).hasSize(1);
            assertThat(collector.metricNames()).contains("countersign.cards.waiting");
            assertThat(collector.everything()).contains("countersign-desk");
        }
    }

    @Test
    void followingFromTheStartExportsASettingsChangeWithoutAnythingReported() {
        SettingsFeed feed = new SettingsFeed(TelemetrySettings.NONE);
        try (LiveTelemetry live = new LiveTelemetry(Map.of(), feed::read, feed)) {
            live.follow();
            assertThat(feed.reads.get()).isEqualTo(1);
            feed.change(new TelemetrySettings("http://127.0.0.1:4318", Map.of(), "countersign", 1.0, false));
            assertThat(feed.reads.get()).isEqualTo(2);
            assertThat(live.on()).isTrue();
        }
    }

    /** Stored telemetry settings and their change feed, told of a change at once on the caller's thread. */
    private static final class SettingsFeed implements StoreChanges {
        final List<Runnable> listeners = new CopyOnWriteArrayList<>();
        private volatile TelemetrySettings stored;
        final AtomicInteger reads = new AtomicInteger();

        SettingsFeed(TelemetrySettings stored) {
            this.stored = stored;
        }

        TelemetrySettings read() {
            reads.incrementAndGet();
            return stored;
        }

        void change(TelemetrySettings next) {
            stored = next;
            listeners.forEach(Runnable::run);
        }

        @Override
        public Subscription onRunChange(Runnable listener) {
            return () -> { };
        }

        @Override
        public Subscription onQueueChange(Runnable listener) {
            return () -> { };
        }

        @Override
        public Subscription onSettingsChange(Runnable listener) {
            listeners.add(listener);
            return () -> listeners.remove(listener);
        }
    }

    private static PersonWait wait(String fallback) {
        Instant since = Instant.parse("2026-12-02T09:00:00Z");
        return new PersonWait("run-1", "ledger", "expired", "deadline", 0, since.plusSeconds(1800), fallback, since,
                since.plusSeconds(1800));
    }
}
