package io.countersign.runtime;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ModelException;
import io.countersign.engine.run.ModelConfiguration;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.service.GatewayProfiles;
import io.countersign.service.HostRunDecisions;
import io.countersign.service.ServerConnections;
import io.countersign.service.gateway.GatewayService;
import io.countersign.service.gateway.GatewaySession;
import io.countersign.service.gateway.HostAnswer;
import io.countersign.store.Store;
import io.countersign.tools.gateway.GatewayBackend;
import io.countersign.tools.gateway.McpGateway;
import io.countersign.tools.mcp.RemoteServers;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/** Countersign as an MCP gateway over one store: the use case behind the MCP server side. */
public final class GatewayWiring {
    private final GatewayService gateway;
    private final GatewayProfiles profiles;

    GatewayWiring(Store store, ToolRegistry registry, RemoteServers servers) {
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
        this.gateway = new GatewayService(store, registry, InvocationRules.discover(List.of(), List.of()),
                connections, Clock.systemUTC(), IdGenerator.random(), Locale.getDefault());
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
        return new Serving() {
            @Override
            public void awaitClosed() throws InterruptedException {
                served.awaitClosed();
            }

            @Override
            public void hostGone() {
                served.hostGone();
            }

            @Override
            public void close() {
                served.close();
            }
        };
    }

    /** A gateway serving a host. */
    public interface Serving extends AutoCloseable {
        /** Waits until the host closed the connection. */
        void awaitClosed() throws InterruptedException;

        /** Ends the host's connection as if it had closed it: its run ends, a waiting card takes no decision. */
        void hostGone();

        @Override
        void close();
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
            public Connection connect(String host) {
                GatewaySession session = gateway.connect(profiled, host);
                AutoCloseable runChanges = gateway.onRunChange(session::poke);
                return new Connection() {
                    @Override
                    public Answer call(String toolName, ObjectNode arguments, Duration every,
                                       Consumer<String> progress) throws InterruptedException {
                        HostAnswer answer = session.call(toolName, arguments, every, progress);
                        return new Answer(answer.text(), answer.error());
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

            @Override
            public AutoCloseable onToolsChange(Runnable listener) {
                return gateway.onSettingsChange(listener);
            }
        };
    }
}
