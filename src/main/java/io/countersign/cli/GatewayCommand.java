package io.countersign.cli;

import io.countersign.runtime.CountersignRuntime;
import io.countersign.runtime.GatewayWiring;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintWriter;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gateway}: Countersign as an MCP gateway that an MCP host connects to instead of its servers. */
@Command(name = "gateway", description = "Serve MCP to a host (a desktop assistant, an IDE or terminal agent) in"
        + " front of the MCP servers a gateway profile names: every tool call goes through the same access gates,"
        + " approval rule, invocation rules and cards as a run. Over stdio (the host starts this command as its"
        + " server; standard output carries MCP only, messages go to standard error), or over Streamable HTTP"
        + " with --listen. Each host connection is a run of the profile in the inbox, in the name of the person"
        + " the gateway runs as.",
        subcommands = {GatewayProfileCommands.Profiles.class, GatewayCommand.Token.class})
final class GatewayCommand extends Subcommand {
    /** A minute: long enough for a host's network hiccup and reconnection, short for a card waiting on nobody. */
    private static final long DEFAULT_IDLE_SECONDS = 60;

    @Option(names = "--profile", paramLabel = "NAME", description = "The gateway profile to serve.")
    String profile;

    @Option(names = "--listen", paramLabel = "HOST:PORT", description = "Serve MCP over Streamable HTTP at"
            + " http://HOST:PORT/mcp instead of stdio; each MCP session is a run of its own. HOST must be a loopback"
            + " address (127.0.0.1, [::1], localhost). Every request must carry the header \"Authorization: Bearer"
            + " TOKEN\" (`gateway token` prints TOKEN); others are refused with 401. Port 0 picks a free one; the URL"
            + " is printed on standard error.")
    String listen;

    @Option(names = "--progress-every", paramLabel = "SECONDS", defaultValue = "5", description = "How often a call"
            + " that waits for a person sends the host a progress notification, when the host asked for them"
            + " (default: ${DEFAULT-VALUE}).")
    long progressSeconds;

    @Option(names = "--session-idle", paramLabel = "SECONDS", description = "With --listen: how long a host's"
            + " session may show no sign of life (no request, no open stream; a dead host's streams close when the"
            + " gateway's progress notifications or keep-alive pings to it fail) before it ends as a disconnect: its"
            + " run ends, a waiting card takes no decision, and a later request naming the session is answered 404"
            + " (default: 60).")
    Long idleSeconds;

    @Override
    CountersignRuntime.Work work() {
        return CountersignRuntime.Work.RUN_AGENTS;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (progressSeconds < 1) {
            throw CliFailure.usage("--progress-every must be at least 1 second, not " + progressSeconds);
        }
        if (idleSeconds != null && listen == null) {
            throw CliFailure.usage("--session-idle applies to --listen only: over stdio the host's closing of"
                    + " standard input ends its run");
        }
        if (idleSeconds != null && idleSeconds < 3) {
            throw CliFailure.usage("--session-idle must be at least 3 seconds, not " + idleSeconds);
        }
        if (profile == null) {
            throw CliFailure.usage("gateway needs --profile NAME (or a subcommand: profiles, token)");
        }
        PrintWriter err = spec.commandLine().getErr();
        Duration every = Duration.ofSeconds(progressSeconds);
        // The raw descriptors: standard output is the MCP stream, with nothing of ours in it.
        GatewayWiring.Serving gateway = listen == null
                ? runtime().gateway().serveStdio(actor(), profile, new FileInputStream(FileDescriptor.in),
                        new FileOutputStream(FileDescriptor.out), every)
                : serveHttp(every);
        err.println("countersign gateway: serving profile " + profile + " over " + gateway.where() + " as "
                + actor().name() + " on " + runtime().describeStore());
        if (listen != null) {
            err.println("countersign gateway: hosts send the header \"Authorization: Bearer TOKEN\" with every"
                    + " request; `countersign gateway token` prints TOKEN (kept in "
                    + GatewayWiring.tokenFile(root().dataFolder()) + ")");
        }
        err.flush();
        // A host that stops its server sends SIGTERM (over HTTP, a person does): the runs end as a disconnect
        // does, before the process exits.
        try (StopSignals signals = StopSignals.onStop(gateway::hostGone)) {
            gateway.awaitClosed();
        } finally {
            gateway.close();
        }
        return Cli.DONE;
    }

    private GatewayWiring.Serving serveHttp(Duration every) {
        Duration idle = Duration.ofSeconds(idleSeconds == null ? DEFAULT_IDLE_SECONDS : idleSeconds);
        try {
            return runtime().gateway().serveHttp(actor(), profile, listen, every, idle, root().dataFolder());
        } catch (IllegalStateException tokenUnusable) {
            throw CliFailure.usage(tokenUnusable.getMessage());
        }
    }

    /** {@code gateway token}: the bearer token HTTP hosts send, for their server configuration. */
    @Command(name = "token", description = "Print the bearer token that every request to `gateway --listen` must"
            + " carry as the header \"Authorization: Bearer TOKEN\": one line, the token. It is made on first use"
            + " (32 random bytes) in the file gateway-token beside the store (the default data folder for a"
            + " PostgreSQL store), readable by this user only, and stays the same on every later start.")
    static final class Token extends Subcommand {
        @Override
        public Integer call() {
            String token;
            try {
                token = GatewayWiring.token(root().dataFolder());
            } catch (IllegalStateException unusable) {
                throw CliFailure.usage(unusable.getMessage());
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println(token);
            out.flush();
            return Cli.DONE;
        }
    }
}
