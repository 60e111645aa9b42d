package io.countersign.engine.port;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.HeaderValues;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The telemetry export an admin stored: where spans and metrics go, and how. Every process applies it to the runs it
 * starts after it changed, unless that process's {@code OTEL_*} environment variables set the same thing: the
 * environment wins, field by field. It holds no secret: a header's value is plain or a reference {@code env:NAME},
 * resolved by each process when it builds the exporter.
 *
 * @param endpoint       the OTLP/HTTP base address ({@code http://collector:4318}); empty: off, unless the
 *                       environment names one
 * @param headers        extra request headers, in the order typed
 * @param serviceName    {@code service.name} of every span and metric
 * @param samplerRatio   the share of runs traced, 0 to 1; a run's every stretch is traced or none is, since the trace
 *                       id derives from the run's id
 * @param captureContent the GenAI conventions' opt-in: executed calls' arguments and results go into spans
 */
public record TelemetrySettings(String endpoint, Map<String, String> headers, String serviceName, double samplerRatio,
                                boolean captureContent) {
    /** Nothing stored: off, unless the environment configures it. */
    public static final TelemetrySettings NONE = new TelemetrySettings("", Map.of(), "countersign", 1.0, false);
    /** The environment variables that win over the stored settings, each over the field it names. */
    public static final List<String> ENVIRONMENT = List.of("OTEL_EXPORTER_OTLP_ENDPOINT",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_EXPORTER_OTLP_HEADERS",
            "OTEL_SERVICE_NAME", "OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG",
            "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "OTEL_SDK_DISABLED");

    /**
     * Checks every field.
     *
     * @throws IllegalArgumentException naming the field and what is wrong; a header's value is never repeated
     */
    public TelemetrySettings {
        endpoint = Objects.requireNonNull(endpoint, "endpoint").strip();
        if (!endpoint.isEmpty()) {
            requireEndpoint(endpoint);
        }
        Objects.requireNonNull(headers, "headers");
        headers.forEach((name, value) -> {
            String where = "the telemetry header \"" + name + "\"";
            if (!HeaderValues.isHeaderName(name)) {
                throw new IllegalArgumentException(where + " is not a valid header name");
            }
            HeaderValues.requireStorable(value, HeaderValues.looksSecret(name), where);
        });
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        serviceName = Objects.requireNonNull(serviceName, "serviceName").strip();
        if (serviceName.isEmpty()) {
            throw new IllegalArgumentException("the telemetry needs a service name, such as countersign");
        }
        if (!(samplerRatio >= 0 && samplerRatio <= 1)) {
            throw new IllegalArgumentException("the share of runs traced must be between 0 and 1, got "
                    + samplerRatio);
        }
    }

    private static void requireEndpoint(String endpoint) {
        URI uri;
        try {
            uri = new URI(endpoint);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the telemetry endpoint is not an address: " + e.getReason());
        }
        if (!uri.isAbsolute() || uri.getHost() == null
                || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
            throw new IllegalArgumentException("the telemetry endpoint must be an absolute http or https address,"
                    + " such as http://collector.example.org:4318");
        }
        if (uri.getUserInfo() != null) {
            throw new IllegalArgumentException("the telemetry endpoint must not carry credentials; put them in a"
                    + " header with a reference like env:NAME");
        }
    }

    /** True when these settings name an endpoint. */
    public boolean exports() {
        return !endpoint.isEmpty();
    }

    /**
     * Reads headers typed one per line as {@code name=value}; blank lines are skipped.
     *
     * @throws IllegalArgumentException naming the line that has no {@code =} or no name
     */
    public static Map<String, String> headersOf(String lines) {
        Map<String, String> headers = new LinkedHashMap<>();
        String[] split = lines == null ? new String[0] : lines.split("\\R");
        for (int i = 0; i < split.length; i++) {
            String line = split[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            int equals = line.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("header line " + (i + 1) + " must read name=value, such as"
                        + " authorization=env:OTLP_TOKEN");
            }
            headers.put(line.substring(0, equals).strip(), line.substring(equals + 1).strip());
        }
        return headers;
    }

    /** The headers one per line, as {@link #headersOf} reads them. */
    public String headersText() {
        StringBuilder text = new StringBuilder();
        headers.forEach((name, value) -> text.append(text.isEmpty() ? "" : "\n").append(name).append('=')
                .append(value));
        return text.toString();
    }

    /** The variables among {@link #ENVIRONMENT} that this environment sets, in that order. */
    public static List<String> setIn(Map<String, String> environment) {
        return ENVIRONMENT.stream().filter(environment::containsKey).toList();
    }

    /** The stored form. */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("endpoint", endpoint);
        ObjectNode typed = node.putObject("headers");
        headers.forEach(typed::put);
        node.put("serviceName", serviceName);
        node.put("samplerRatio", samplerRatio);
        node.put("captureContent", captureContent);
        return node;
    }

    /**
     * Reads the stored form.
     *
     * @throws IllegalArgumentException when a field is missing or wrong
     */
    public static TelemetrySettings fromJson(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("the telemetry settings are a JSON object, got " + node);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        node.path("headers").fields().forEachRemaining(field -> headers.put(field.getKey(), field.getValue().asText()));
        return new TelemetrySettings(node.path("endpoint").asText(""), headers,
                node.path("serviceName").asText(NONE.serviceName()), node.path("samplerRatio").asDouble(1.0),
                node.path("captureContent").asBoolean(false));
    }
}
