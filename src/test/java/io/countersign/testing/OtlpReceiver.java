package io.countersign.testing;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real OTLP/HTTP endpoint on the loopback: it decodes what it receives with the OpenTelemetry protobuf
 * definitions and keeps the spans, the metrics' names and the raw bodies; it answers with the status set.
 */
public final class OtlpReceiver implements AutoCloseable {
    private final HttpServer server;
    private final List<byte[]> bodies = new CopyOnWriteArrayList<>();
    private final List<Span> spans = new CopyOnWriteArrayList<>();
    private final List<String> metricNames = new CopyOnWriteArrayList<>();
    private final List<Map.Entry<String, String>> headers = new CopyOnWriteArrayList<>();
    private volatile int status = 200;

    public OtlpReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/traces", exchange -> {
            exchange.getRequestHeaders().forEach((name, values) ->
                    values.forEach(value -> headers.add(Map.entry(name.toLowerCase(Locale.ROOT), value))));
            byte[] body = exchange.getRequestBody().readAllBytes();
            bodies.add(body);
            ExportTraceServiceRequest.parseFrom(body).getResourceSpansList().forEach(resource ->
                    resource.getScopeSpansList().forEach(scope -> spans.addAll(scope.getSpansList())));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.createContext("/v1/metrics", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            bodies.add(body);
            ExportMetricsServiceRequest.parseFrom(body).getResourceMetricsList().forEach(resource ->
                    resource.getScopeMetricsList().forEach(scope -> scope.getMetricsList()
                            .forEach(metric -> metricNames.add(metric.getName()))));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    /** What {@code OTEL_EXPORTER_OTLP_ENDPOINT} names to reach this receiver. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** From now on every export is answered with this status (503: the collector is overloaded). */
    public void answer(int value) {
        status = value;
    }

    public List<Span> spans() {
        return List.copyOf(spans);
    }

    /** The values of a request header the trace exports came with, one per export. */
    public List<String> headers(String name) {
        return headers.stream().filter(header -> header.getKey().equals(name)).map(Map.Entry::getValue).toList();
    }

    public List<String> metricNames() {
        return List.copyOf(metricNames);
    }

    /** How many exports arrived, answered or not. */
    public int exports() {
        return bodies.size();
    }

    /** Every body received, as one text: to tell whether a value went out at all. */
    public String everything() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        bodies.forEach(all::writeBytes);
        return all.toString(StandardCharsets.UTF_8);
    }

    public static List<Span> named(List<Span> spans, String name) {
        return spans.stream().filter(span -> span.getName().equals(name)).toList();
    }

    public static Optional<AnyValue> value(Span span, String key) {
        return span.getAttributesList().stream().filter(a -> a.getKey().equals(key)).map(KeyValue::getValue)
                .findFirst();
    }

    public static String text(Span span, String key) {
        return value(span, key).map(AnyValue::getStringValue).orElse(null);
    }

    public static long number(Span span, String key) {
        return value(span, key).orElseThrow(() -> new AssertionError("no " + key + " on " + span.getName()))
                .getIntValue();
    }

    public static String traceId(Span span) {
        return HexFormat.of().formatHex(span.getTraceId().toByteArray());
    }

    public static String spanId(Span span) {
        return HexFormat.of().formatHex(span.getSpanId().toByteArray());
    }

    public static KeyValue attribute(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
