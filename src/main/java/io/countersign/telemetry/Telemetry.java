package io.countersign.telemetry;

import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.WebhookSender;
import io.countersign.engine.webhook.SendResult;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A process's OpenTelemetry: off until the standard {@code OTEL_*} variables name an OTLP endpoint, then the SDK as
 * its autoconfiguration sets it up from them (headers, service name, sampler, batching), exporting OTLP over
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
        boolean endpoint = environment.containsKey("OTEL_EXPORTER_OTLP_ENDPOINT")
                || environment.containsKey("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
                || environment.containsKey("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");
        if (!endpoint || "true".equalsIgnoreCase(environment.get("OTEL_SDK_DISABLED"))) {
            return OFF;
        }
        Map<String, String> properties = new HashMap<>();
        properties.put("otel.service.name", "countersign");
        properties.put("otel.exporter.otlp.protocol", "http/protobuf");
        properties.put("otel.logs.exporter", "none");
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
        boolean capture = "true".equalsIgnoreCase(environment.get(CAPTURE_CONTENT));
        return new Telemetry(sdk, new RunTraces(sdk.getTracer(SCOPE), measures, capture), measures);
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

    /** The sender, with each failed delivery counted. */
    public WebhookSender countingFailures(WebhookSender sender) {
        if (measures == null) {
            return sender;
        }
        return delivery -> {
            SendResult result = sender.send(delivery);
            if (!(result instanceof SendResult.Delivered)) {
                measures.webhookFailed();
            }
            return result;
        };
    }

    /** Exports what is left, waiting a few seconds at most, and stops the exporting threads. */
    @Override
    public void close() {
        if (sdk != null && !sdk.shutdown().join(CLOSE_SECONDS, TimeUnit.SECONDS).isSuccess()) {
            LOG.log(Level.FINE, "telemetry: the last export did not finish in {0} s; it was dropped", CLOSE_SECONDS);
        }
    }
}
