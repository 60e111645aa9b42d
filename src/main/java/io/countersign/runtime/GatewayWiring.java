package io.countersign.runtime;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.event.EventType;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ModelException;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.tool.CallerChannel;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.service.GatewayProfiles;
import io.countersign.service.HostRunDecisions;
import io.countersign.service.ServerConnections;
import io.countersign.service.gateway.GatewayService;
import io.countersign.service.gateway.GatewaySession;
import io.countersign.service.gateway.HostAnswer;
import io.countersign.service.gateway.HostTask;
import io.countersign.store.Store;
import io.countersign.tools.gateway.GatewayBackend;
import io.countersign.tools.gateway.GatewayToken;
import io.countersign.tools.gateway.HttpGatewayListener;
import io.countersign.tools.gateway.ListenAddress;
import io.countersign.tools.gateway.McpGateway;
import io.countersign.tools.mcp.RemoteServers;
import io.countersign.tools.mcp.ServerFeatures;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Countersign as an MCP gateway over one store: the use case behind the MCP server side. */
public final class GatewayWiring {
    private final GatewayService gateway;
    private final GatewayProfiles profiles;
    private final RemoteServers servers;

    GatewayWiring(Store store, ToolRegistry registry, SchemaValidator schemas, RemoteServers servers,
                  RunTelemetry telemetry) {
        this.servers = servers;
        ServerConnections connections = servers == null ? ServerConnections.NONE : new ServerConnections() {
            @Override
            public void request(Set<String> names) {
                servers.request(names);
            }

            @Override
            public Set<String> await(Set<String> names, Duration bound) {
                return servers.awaitServers(names, bound);
            }
        };
        this.profiles = new GatewayProfiles(store.configurations(), store.servers(), store.users());
        this.gateway = new GatewayService(store, registry, schemas,
                CountersignRuntime.invocationRules(store, registry, Clock.systemUTC()), connections, telemetry,
                Clock.systemUTC(), IdGenerator.random(), Locale.getDefault());
    }

    /** The profiles a gateway serves hosts with. */
    public GatewayProfiles profiles() {
        return profiles;
    }

    /**
     * The "model" of a gateway profile in a process that is not its gateway: a run of the profile is driven by an
     * MCP host, never by a prompt, so asking it for a turn says so.
     */
    static ChatModel hostOnly(ModelConfiguration configuration) {
        return request -> {
            throw new ModelException("gateway_profile", "model configuration \"" + configuration.name()
                    + "\" stands for an MCP host connected to `countersign gateway`; its profiles serve hosts and"
                    + " cannot run from a prompt");
        };
    }

    /**
     * Serves the profile over stdio as the person, until the host closes standard input.
     *
     * @throws IllegalArgumentException when the profile does not exist or is not a gateway profile
     * @throws io.countersign.service.NotPermittedException when the person may not run agents
     */
    public Serving serveStdio(Actor actor, String profile, InputStream in, OutputStream out,
                              Duration progressEvery) {
        McpGateway served = McpGateway.stdio(backend(gateway.profile(actor, profile)), in, out, progressEvery);
        return new Served("stdio", served::awaitClosed, served::hostGone, served::close);
    }

    /**
     * Serves the profile over Streamable HTTP on a loopback address as the person, until stopped; each MCP
     * session is a host connection and a run of its own.
     *
     * @param listen     {@code HOST:PORT}, the host a loopback address, port 0 for a free one
     * @param idleAfter  how long a host's session may show no sign of life before it ends as a disconnect
     * @param dataFolder where the gateway's bearer token is kept ({@link #token(Path)}); every request must carry it
     * @throws IllegalArgumentException when the address is not usable (no port, out of range, unknown host, not
     *                                  loopback, in use) or the profile does not exist or is not a gateway profile
     * @throws IllegalStateException    when the token cannot be made or read
     * @throws io.countersign.service.NotPermittedException when the person may not run agents
     */
    public Serving serveHttp(Actor actor, String profile, String listen, Duration progressEvery,
                             Duration idleAfter, Path dataFolder) {
        ListenAddress address = ListenAddress.parse(listen);
        GatewayToken token = GatewayToken.in(dataFolder);
        HttpGatewayListener served = HttpGatewayListener.start(address, backend(gateway.profile(actor, profile)),
                progressEvery, idleAfter, token);
        return new Served(served.url().toString(), served::awaitClosed, served::hostGone, served::close);
    }

    /**
     * The bearer token an HTTP host sends the gateway as {@code Authorization: Bearer TOKEN}, kept in
     * {@value GatewayToken#FILE_NAME} in the data folder (readable by its user only); made there on first use, the
     * same on every later start.
     *
     * @throws IllegalStateException naming the file and the cause, when it cannot be made or read, or when others may
     *                               read it
     */
    public static String token(Path dataFolder) {
        return GatewayToken.in(dataFolder).value();
    }

    /** The file {@link #token(Path)} is kept in. */
    public static Path tokenFile(Path dataFolder) {
        return dataFolder.resolve(GatewayToken.FILE_NAME).toAbsolutePath();
    }

    /** A gateway serving hosts. */
    public interface Serving extends AutoCloseable {
        /** Where hosts reach it: {@code stdio}, or the HTTP endpoint's URL with the port really bound. */
        String where();

        /** Waits until the host closed the connection (over stdio) or the gateway was stopped. */
        void awaitClosed() throws InterruptedException;

        /** Ends every host's connection as if it had closed it: their runs end, a waiting card takes no decision. */
        void hostGone();

        @Override
        void close();
    }

    /** Waiting for a gateway to close. */
    private interface Closing {
        void await() throws InterruptedException;
    }

    private record Served(String where, Closing closing, Runnable ending, Runnable closer) implements Serving {
        @Override
        public void awaitClosed() throws InterruptedException {
            closing.await();
        }

        @Override
        public void hostGone() {
            ending.run();
        }

        @Override
        public void close() {
            closer.run();
        }
    }

    /** A host's connection to its session's run, told of every change of runs and decisions. */
    private GatewayBackend.Connection connection(GatewaySession session) {
        AutoCloseable runChanges = gateway.onRunChange(session::poke);
        return new GatewayBackend.Connection() {
            @Override
            public CompletableFuture<GatewayBackend.Answer> call(String toolName, ObjectNode arguments,
                                                                 CallerChannel caller) {
                return session.call(toolName, arguments, caller).thenApply(GatewayWiring::answer);
            }

            @Override
            public GatewayBackend.Task callAsTask(String toolName, ObjectNode arguments, CallerChannel caller) {
                HostTask task = session.callAsTask(toolName, arguments, caller);
                return new GatewayBackend.Task(task.id(), task.answer().thenApply(GatewayWiring::answer));
            }

            @Override
            public void withdraw(CallerChannel caller) {
                session.withdraw(caller);
            }

            @Override
            public void used(EventType use, String server, String detail) {
                session.recordUse(use, server, detail);
            }

            @Override
            public String waiting() {
                return session.waitingMessage();
            }

            @Override
            public void close() {
                session.close();
                try {
                    runChanges.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }

    private static GatewayBackend.Answer answer(HostAnswer answer) {
        return new GatewayBackend.Answer(answer.text(), answer.error(), answer.serverResult(), answer.note());
    }

    private GatewayBackend backend(HostRunDecisions.Profiled profiled) {
        return new GatewayBackend() {
            @Override
            public List<Tool> offered() {
                return gateway.offered(profiled);
            }

            @Override
            public List<String> offerable() {
                return gateway.offerable(profiled);
            }

            @Override
            public List<ServerFeatures> servers() {
                return servers == null ? List.of() : gateway.offeredServers(profiled).stream()
                        .map(servers::features).flatMap(Optional::stream).toList();
            }

            @Override
            public Connection connect(String host) {
                return connection(gateway.connect(profiled, host));
            }

            @Override
            public <C extends CallerChannel> List<Adopted<C>> adoptTasks(Supplier<C> channels) {
                return gateway.adopt(profiled, channels).stream().map(adopted -> new Adopted<>(
                        connection(adopted.session()), new Task(adopted.task().id(),
                        adopted.task().answer().thenApply(GatewayWiring::answer)), adopted.channel(),
                        adopted.waitingSince())).toList();
            }

            @Override
            public Optional<Recorded> recordedTask(String taskId) {
                return gateway.recordedTask(profiled, taskId).map(task -> new Recorded(answer(task.answer()),
                        task.cancelled(), task.runStarted(), task.recorded()));
            }

            @Override
            public AutoCloseable onToolsChange(Runnable listener) {
                return gateway.onSettingsChange(listener);
            }
        };
    }
}
