package io.countersign.telemetry;

import io.countersign.engine.HeaderValues;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.TelemetrySettings;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One configuration of a process's OpenTelemetry: off until the standard {@code OTEL_*} variables or the stored
 * settings name an OTLP endpoint, then the SDK as its autoconfiguration sets it up from them (headers, service
 * name, sampler, batching), exporting OTLP over
 * HTTP/protobuf from threads of its own. A full queue drops spans (the SDK counts them); a slow or absent collector
 * never holds up a run.
 */
public final class Telemetry implements AutoCloseable {
    /** Off: nothing is traced or measured, and no thread runs. */
    public static final Telemetry OFF = new Telemetry(null, RunTelemetry.NONE, null);
    /** The GenAI conventions' switch for content: tool arguments and results go into spans only when it is true. */
    public static final String CAPTURE_CONTENT = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";
    private static final Logger LOG = Logger.getLogger(Telemetry.class.getName());
    private static final String SCOPE = "io.countersign";
    /**
     * How long closing waits for the last export: a command that ends is held up by a collector that is down (the
     * exporter retries) at most this long.
     */
    private static final long CLOSE_SECONDS = 1;

    private final OpenTelemetrySdk sdk;
    private final RunTelemetry runs;
    private final RunMeasures measures;

    private Telemetry(OpenTelemetrySdk sdk, RunTelemetry runs, RunMeasures measures) {
        this.sdk = sdk;
        this.runs = runs;
        this.measures = measures;
    }

    /**
     * The telemetry the environment configures: {@link #OFF} unless {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or the
     * traces' or metrics' own endpoint) is set and {@code OTEL_SDK_DISABLED} is not {@code true}.
     */
    public static Telemetry fromEnvironment(Map<String, String> environment) {
        return configured(environment, TelemetrySettings.NONE);
    }

    /**
     * The telemetry the stored settings configure, with every {@code OTEL_*} variable of the environment winning
     * over the field it sets: {@link #OFF} unless one of them names an endpoint and {@code OTEL_SDK_DISABLED} is
     * not {@code true}. A stored header's reference {@code env:NAME} is read from the environment now; one whose
     * variable is not set is left out, with a warning.
     */
    public static Telemetry configured(Map<String, String> environment, TelemetrySettings stored) {
        boolean endpoint = stored.exports() || environment.containsKey("OTEL_EXPORTER_OTLP_ENDPOINT")
                || environment.containsKey("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
                || environment.containsKey("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");
        if (!endpoint || "true".equalsIgnoreCase(environment.get("OTEL_SDK_DISABLED"))) {
            return OFF;
        }
        Map<String, String> properties = new HashMap<>();
        properties.put("otel.service.name", stored.serviceName());
        properties.put("otel.exporter.otlp.protocol", "http/protobuf");
        properties.put("otel.logs.exporter", "none");
        if (stored.exports()) {
            properties.put("otel.exporter.otlp.endpoint", stored.endpoint());
        }
        String headers = headers(stored, environment);
        if (!headers.isEmpty()) {
            properties.put("otel.exporter.otlp.headers", headers);
        }
        if (stored.samplerRatio() < 1) {
            properties.put("otel.traces.sampler", "parentbased_traceidratio");
            properties.put("otel.traces.sampler.arg", Double.toString(stored.samplerRatio()));
        }
        environment.forEach((name, value) -> {
            if (name.startsWith("OTEL_")) {
                properties.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        OpenTelemetrySdk sdk;
        try {
            sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .disableShutdownHook()
                    .addPropertiesSupplier(() -> properties)
                    .addTracerProviderCustomizer((tracers, config) -> tracers.setIdGenerator(new RunTraceIds()))
                    .build().getOpenTelemetrySdk();
        } catch (ConfigurationException e) {
            // Telemetry never keeps a process from its work: a setting it cannot use leaves it off, said once.
            LOG.log(Level.WARNING, "telemetry is off: the OTEL_* settings are not usable ({0})", e.getMessage());
            return OFF;
        }
        RunMeasures measures = new RunMeasures(sdk.getMeter(SCOPE));
        String capture = environment.get(CAPTURE_CONTENT);
        boolean captureContent = capture == null ? stored.captureContent() : "true".equalsIgnoreCase(capture);
        return new Telemetry(sdk, new RunTraces(sdk.getTracer(SCOPE), measures, captureContent), measures);
    }

    /**
     * The stored headers as the SDK reads {@code OTEL_EXPORTER_OTLP_HEADERS}: {@code name=value} pairs joined by
     * commas, each value percent-encoded (a token may hold commas or equals signs) and references resolved.
     */
    private static String headers(TelemetrySettings stored, Map<String, String> environment) {
        List<String> pairs = new ArrayList<>();
        stored.headers().forEach((name, value) -> {
            String resolved = value;
            if (HeaderValues.isReference(value)) {
                String variable = value.substring(HeaderValues.SECRET_REFERENCE_PREFIX.length());
                resolved = environment.get(variable);
                if (resolved == null) {
                    LOG.log(Level.WARNING, "telemetry: the header {0} refers to the environment variable {1}, which"
                            + " is not set; it is left out", new Object[] {name, variable});
                    return;
                }
            }
            pairs.add(name + "=" + URLEncoder.encode(resolved, StandardCharsets.UTF_8).replace("+", "%20"));
        });
        return String.join(",", pairs);
    }

    /** True when spans and metrics are exported. */
    public boolean on() {
        return sdk != null;
    }

    /** What the tool loop and the decisions report to. */
    public RunTelemetry runs() {
        return runs;
    }

    /** Counts the cards waiting now by agent, as {@code waiting} tells each time the metrics are collected. */
    public void watchWaiting(Supplier<Map<String, Long>> waiting) {
        if (measures != null) {
            measures.watchWaiting(waiting);
        }
    }

    /** Counts a webhook delivery that failed. */
    void webhookFailed() {
        if (measures != null) {
            measures.webhookFailed();
        }
    }

    /** Exports what is left, waiting a few seconds at most, and stops the exporting threads. */
    @Override
    public void close() {
        if (sdk != null && !sdk.shutdown().join(CLOSE_SECONDS, TimeUnit.SECONDS).isSuccess()) {
            LOG.log(Level.FINE, "telemetry: the last export did not finish in {0} s; it was dropped", CLOSE_SECONDS);
        }
    }

    /** Like {@link #close()}, without waiting: the SDK's own threads export what is left, then stop. */
    void closeInBackground() {
        if (sdk != null) {
            sdk.shutdown();
        }
    }
}
