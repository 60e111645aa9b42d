package io.countersign.tools.mcp;

import io.countersign.engine.RetryPolicy;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.port.StoreChanges;
import io.countersign.engine.tool.ImportReport;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the tool registry in line with the enabled MCP server records. Each server is connected in the
 * background and its tools imported; when a record is added, changed, disabled or removed, here or (heard through
 * the store's change feed) in another process, the old connection is closed and its tools unregistered before the
 * new one imports. The tools are judged on the server's declaration alone: the approval rule reads it from the
 * settings at every call, so a change of the declaration needs no new connection.
 *
 * <p>A server that cannot be connected is reported in one log line, and tried again after a pause that doubles up
 * to five minutes ({@link #RETRIES}); its tools are offered once it answers. {@code countersign servers test NAME} shows
 * what is wrong.
 */
public final class RemoteServers implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(RemoteServers.class.getName());
    /** Half a minute after a server failed, doubled for each further failure up to five minutes, without end. */
    static final RetryPolicy RETRIES = new RetryPolicy(Duration.ofSeconds(30), 2, Duration.ofMinutes(5),
            RetryPolicy.UNLIMITED, 0);

    private final ServerRecords servers;
    private final ToolRegistry registry;
    private final SecretResolver secrets;
    private final RetryPolicy retryPolicy;
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "countersign-mcp-retry");
        thread.setDaemon(true);
        return thread;
    });
    private final ExecutorService connecting = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "countersign-mcp-connect");
        thread.setDaemon(true);
        return thread;
    });
    /** Every source not yet closed, so that closing this closes them also while they are still connecting. */
    private final Set<McpToolSource> live = ConcurrentHashMap.newKeySet();
    /** By server name; guarded by this. */
    private final Map<String, Connection> current = new HashMap<>();
    /** The servers asked for by {@link #request}, or {@code null} to follow every enabled one; guarded by this. */
    private Set<String> requested;
    private StoreChanges.Subscription subscription;
    private volatile boolean closed;

    /**
     * One server as imported.
     *
     * @param imported the record with the declaration left out, to tell a change that needs a new connection
     * @param source   completes when the attempt ended: the connected source, or {@code null}
     * @param attempt  1 for the first attempt with this record, counting up with every retry
     */
    private record Connection(McpServerRecord imported, CompletableFuture<McpToolSource> source, int attempt) {
    }

    public RemoteServers(ServerRecords servers, ToolRegistry registry, SecretResolver secrets) {
        this(servers, registry, secrets, RETRIES);
    }

    /** With the policy by which a server that failed is connected again. */
    public RemoteServers(ServerRecords servers, ToolRegistry registry, SecretResolver secrets,
                         RetryPolicy retryPolicy) {
        this.servers = servers;
        this.registry = registry;
        this.secrets = secrets;
        this.retryPolicy = retryPolicy;
    }

    /** Connects the enabled servers in the background, and follows every later change of the records. */
    public synchronized void start(StoreChanges changes) {
        subscription = changes.onSettingsChange(this::sync);
        sync();
    }

    /**
     * Connects no server until {@link #request} asks for it, and follows every later change of the records of
     * those asked for: for a process that needs only the servers of the calls it carries out.
     */
    public synchronized void startOnRequest(StoreChanges changes) {
        requested = new HashSet<>();
        start(changes);
    }

    /**
     * Connects the named servers in the background, when they are enabled and not yet connected or connecting;
     * returns at once. Without effect after {@link #start}, which connects every enabled server anyway.
     */
    public synchronized void request(Set<String> names) {
        if (requested != null && requested.addAll(names)) {
            sync();
        }
    }

    /**
     * Waits until each of the named servers has imported its tools or ended its attempt, at most {@code bound}.
     *
     * @return the names of those whose tools are not imported now: not enabled, not asked for, still connecting
     *         or failed (a failed server is tried again later, in the background)
     */
    public Set<String> awaitServers(Set<String> names, Duration bound) {
        Map<String, CompletableFuture<McpToolSource>> pending = new HashMap<>();
        synchronized (this) {
            names.forEach(name -> {
                Connection connection = current.get(name);
                if (connection != null) {
                    pending.put(name, connection.source());
                }
            });
        }
        try {
            CompletableFuture.allOf(pending.values().toArray(CompletableFuture[]::new))
                    .get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // Some are still under way, or failed: the ones connected are told below.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Set<String> missing = new HashSet<>(names);
        pending.forEach((name, source) -> {
            if (source.isDone() && !source.isCompletedExceptionally() && source.join() != null) {
                missing.remove(name);
            }
        });
        return missing;
    }

    /**
     * Waits until every server connected so far has imported its tools or failed, at most {@code bound}.
     *
     * @return true when all of them ended within the bound
     */
    public boolean awaitImports(Duration bound) {
        CompletableFuture<?>[] pending;
        synchronized (this) {
            pending = current.values().stream().map(Connection::source).toArray(CompletableFuture[]::new);
        }
        try {
            CompletableFuture.allOf(pending).get(bound.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true; // open() logged it: the attempt has ended
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The resources and prompts of a server whose connection is up (its tools were imported), for a gateway to pass
     * on; empty for one not connected (yet) or not followed here.
     */
    public synchronized Optional<ServerFeatures> features(String serverName) {
        Connection connection = current.get(serverName);
        if (connection == null || !connection.source().isDone() || connection.source().isCompletedExceptionally()) {
            return Optional.empty();
        }
        return Optional.of(connection.source().join().features());
    }

    /** Brings the connections in line with the records now in the store. */
    public synchronized void sync() {
        if (closed) {
            return;
        }
        Map<String, McpServerRecord> wanted = new LinkedHashMap<>();
        try {
            servers.list().stream().filter(McpServerRecord::enabled)
                    .filter(server -> requested == null || requested.contains(server.name()))
                    .forEach(server -> wanted.put(server.name(), server));
        } catch (RuntimeException e) { // the store behind the port failed: keep what is connected
            LOG.log(Level.WARNING, "the MCP server records could not be read, the servers stay as they were: {0}",
                    e.getMessage());
            return;
        }
        Map<String, CompletableFuture<?>> closing = new HashMap<>();
        for (Iterator<Map.Entry<String, Connection>> entries = current.entrySet().iterator(); entries.hasNext(); ) {
            Map.Entry<String, Connection> entry = entries.next();
            McpServerRecord server = wanted.get(entry.getKey());
            if (server == null || !withoutDeclaration(server).equals(entry.getValue().imported())) {
                closing.put(entry.getKey(), entry.getValue().source().thenAcceptAsync(this::close, connecting));
                entries.remove();
            }
        }
        wanted.forEach((name, server) -> {
            if (!current.containsKey(name)) {
                // The old connection's tools must be gone before the new one registers the same names.
                connect(server, closing.getOrDefault(name, CompletableFuture.completedFuture(null)), 1);
            }
        });
    }

    /** Connects once {@code after} is done; guarded by this. */
    private void connect(McpServerRecord server, CompletableFuture<?> after, int attempt) {
        Connection connection = new Connection(withoutDeclaration(server),
                after.thenApplyAsync(ignored -> open(server, attempt), connecting), attempt);
        current.put(server.name(), connection);
        connection.source().thenAccept(source -> {
            if (source == null) {
                retryLater(server, connection);
            }
        });
    }

    private void retryLater(McpServerRecord server, Connection failed) {
        try {
            retries.schedule(() -> retry(server, failed), retryPolicy.delayBefore(failed.attempt()).toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed meanwhile: nothing to retry
        }
    }

    private synchronized void retry(McpServerRecord server, Connection failed) {
        // Only while nothing replaced the failed attempt: a changed or removed record has its own connection.
        if (!closed && current.get(server.name()) == failed) {
            connect(server, CompletableFuture.completedFuture(null), failed.attempt() + 1);
        }
    }

    private static McpServerRecord withoutDeclaration(McpServerRecord server) {
        return server.withDeclaration(ApprovalDeclaration.NOT_DECLARED);
    }

    private McpToolSource open(McpServerRecord server, int attempt) {
        McpToolSource source = McpToolSource.builder(server, registry).secrets(secrets).build();
        live.add(source);
        if (closed) {
            close(source);
            return null;
        }
        try {
            ImportReport report = source.open();
            LOG.log(Level.INFO, "MCP server {0}: {1} tools imported{2}", new Object[] {server.name(),
                report.registered().size(), attempt == 1 ? "" : " at attempt " + attempt});
            return source;
        } catch (McpServerException | IllegalStateException e) {
            close(source);
            // One warning per record; the retries that fail too are logged only in detail.
            LOG.log(attempt == 1 ? Level.WARNING : Level.FINE, "{0}; its tools are not offered until it can be"
                    + " used, next try in {1} s (countersign servers test {2} shows what is wrong)", new Object[] {
                        e.getMessage(), retryPolicy.delayBefore(attempt).toSeconds(), server.name()});
            return null;
        } catch (RuntimeException e) {
            close(source);
            LOG.log(Level.WARNING, "importing the tools of MCP server " + server.name() + " failed", e);
            return null;
        }
    }

    private void close(McpToolSource source) {
        if (source != null) {
            source.close();
            live.remove(source);
        }
    }

    /** Stops following the records, closes every connection and unregisters the imported tools. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            if (subscription != null) {
                subscription.close();
            }
            current.clear();
        }
        retries.shutdownNow();
        connecting.shutdownNow();
        live.forEach(this::close);
    }
}
