package io.countersign.telemetry;

import static io.countersign.testing.OtlpReceiver.named;
import static io.countersign.testing.OtlpReceiver.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.port.PersonWait;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.TelemetrySettings;
import io.countersign.testing.OtlpReceiver;
import io.opentelemetry.proto.trace.v1.Span;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Telemetry is off until an endpoint is configured, by the environment or the stored settings, and settings it cannot
 * use leave it off; the environment wins over the stored settings.
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
        try (LiveTelemetry live = new LiveTelemetry(Map.of())) {
            live.apply(TelemetrySettings.NONE);
            assertThat(live.on()).isFalse();
            live.apply(new TelemetrySettings("http://127.0.0.1:4318", Map.of(), "countersign", 0.5, false));
            assertThat(live.on()).isTrue();
            live.apply(TelemetrySettings.NONE);
            assertThat(live.on()).isFalse();
        }
    }

    private static PersonWait wait(String fallback) {
        Instant since = Instant.parse("2026-12-02T09:00:00Z");
        return new PersonWait("run-1", "ledger", "expired", "deadline", 0, since.plusSeconds(1800), fallback, since,
                since.plusSeconds(1800));
    }
}
