package io.countersign.tools.gateway;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The signs of life of each HTTP host's session: a request, or a stream still open (a call's answer, the host's
 * GET stream). The SDK keeps a session until the host deletes it, so a host that vanished without a {@code DELETE}
 * would keep its run open for as long as the gateway runs; here a session with no open stream and no request for
 * the idle time is handed to {@code onIdle}. A dead host's stream stays "open" only until a write to it fails
 * (progress notifications, keep-alive pings), so the idle time starts at the latest then.
 */
final class HostActivity implements Filter, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(HostActivity.class.getName());
    private static final String SESSION_HEADER = "Mcp-Session-Id";

    private final Duration idleAfter;
    private final Consumer<String> onIdle;
    private final Map<String, Activity> sessions = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "countersign-gateway-idle-sessions");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * Watches sessions from now on, and looks for idle ones a few times per idle time.
     *
     * @param onIdle told the id of a session that showed no sign of life for {@code idleAfter}, once
     */
    HostActivity(Duration idleAfter, Consumer<String> onIdle) {
        if (idleAfter.isNegative() || idleAfter.isZero()) {
            throw new IllegalArgumentException("a session's idle time must be positive, not " + idleAfter);
        }
        this.idleAfter = idleAfter;
        this.onIdle = onIdle;
        long every = Math.max(50, Math.min(1000, idleAfter.toMillis() / 4));
        sweeper.scheduleWithFixedDelay(this::endIdle, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        String asked = http.getHeader(SESSION_HEADER);
        // Only sessions the SDK created are watched: a request naming an unknown id is answered 404 and forgotten.
        Activity known = asked == null ? null : sessions.get(asked);
        if (known != null) {
            known.open(System.nanoTime());
        }
        try {
            chain.doFilter(request, response);
        } finally {
            String created = asked == null ? ((HttpServletResponse) response).getHeader(SESSION_HEADER) : null;
            Activity activity = known;
            if (created != null) {
                activity = new Activity();
                activity.open(System.nanoTime());
                sessions.put(created, activity);
            }
            if (activity != null) {
                streamOrDone(http, activity);
            }
            if ("DELETE".equals(http.getMethod()) && asked != null
                    && ((HttpServletResponse) response).getStatus() < 300) {
                sessions.remove(asked);
            }
        }
    }

    /** A request answered as a stream stays a sign of life until the stream ends; any other ends now. */
    private void streamOrDone(HttpServletRequest request, Activity activity) {
        if (!request.isAsyncStarted()) {
            activity.close(System.nanoTime());
            return;
        }
        request.getAsyncContext().addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                activity.close(System.nanoTime());
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                // onComplete follows
            }

            @Override
            public void onError(AsyncEvent event) {
                // onComplete follows
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                // the SDK starts each stream once
            }
        });
    }

    private void endIdle() {
        try {
            long now = System.nanoTime();
            List<String> idle = sessions.entrySet().stream()
                    .filter(session -> session.getValue().idleSince(now) >= idleAfter.toNanos())
                    .map(Map.Entry::getKey).toList();
            for (String session : idle) {
                if (sessions.remove(session) != null) {
                    LOG.info(() -> "the MCP host of session " + session + " showed no sign of life for "
                            + idleAfter.toSeconds() + " s (no request, no open stream): its session ends as a"
                            + " disconnect");
                    onIdle.accept(session);
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "ending the idle sessions of MCP hosts failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }

    /** One session's open requests and streams, and when the last one ended. */
    private static final class Activity {
        private int open;
        private long lastEnded;

        synchronized void open(long now) {
            open++;
            lastEnded = now;
        }

        synchronized void close(long now) {
            open = Math.max(0, open - 1);
            lastEnded = now;
        }

        /** How long the session has had nothing open, in nanoseconds; zero while something is. */
        synchronized long idleSince(long now) {
            return open > 0 ? 0 : now - lastEnded;
        }
    }
}
