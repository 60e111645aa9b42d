package io.countersign.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.port.RunTelemetry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Telemetry is off until an endpoint is configured, and settings it cannot use leave it off. */
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
}
