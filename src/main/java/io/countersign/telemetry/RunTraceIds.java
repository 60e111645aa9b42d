package io.countersign.telemetry;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.trace.IdGenerator;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Supplier;

/**
 * A run's trace id and the span id of its first stretch, both derived from the run's id: every process that drives
 * a stretch of the run, or ends its wait, finds the same trace without anything kept beside the run. As the SDK's
 * id generator it hands out those ids for the first stretch's span, random ones for every other span.
 */
final class RunTraceIds implements IdGenerator {
    private static final ThreadLocal<String[]> NEXT = new ThreadLocal<>();

    @Override
    public String generateSpanId() {
        String[] next = NEXT.get();
        return next == null ? IdGenerator.random().generateSpanId() : next[1];
    }

    @Override
    public String generateTraceId() {
        String[] next = NEXT.get();
        return next == null ? IdGenerator.random().generateTraceId() : next[0];
    }

    /** Runs {@code start} with the run's own ids handed out to the root span it starts. */
    static <T> T asRunRoot(String runId, Supplier<T> start) {
        NEXT.set(ids(runId));
        try {
            return start.get();
        } finally {
            NEXT.remove();
        }
    }

    /** The run's first stretch, as the parent of later stretches and of the waits in other processes. */
    static SpanContext runRoot(String runId) {
        String[] ids = ids(runId);
        return SpanContext.createFromRemoteParent(ids[0], ids[1], TraceFlags.getSampled(), TraceState.getDefault());
    }

    /** The run's trace id and its first stretch's span id: the first 16 and the next 8 bytes of a SHA-256. */
    private static String[] ids(String runId) {
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest(("countersign run " + runId)
                    .getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        return new String[] {HexFormat.of().formatHex(digest, 0, 16), HexFormat.of().formatHex(digest, 16, 24)};
    }
}
