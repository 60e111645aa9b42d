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
        + " server); standard output carries MCP only, messages go to standard error. Each host connection is a"
        + " run of the profile in the inbox, in the name of the person the gateway runs as.",
        subcommands = GatewayProfileCommands.Profiles.class)
final class GatewayCommand extends Subcommand {
    @Option(names = "--profile", paramLabel = "NAME", description = "The gateway profile to serve.")
    String profile;

    @Option(names = "--progress-every", paramLabel = "SECONDS", defaultValue = "5", description = "How often a call"
            + " that waits for a person sends the host a progress notification, when the host asked for them"
            + " (default: ${DEFAULT-VALUE}).")
    long progressSeconds;

    @Override
    CountersignRuntime.Work work() {
        return CountersignRuntime.Work.RUN_AGENTS;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (progressSeconds < 1) {
            throw CliFailure.usage("--progress-every must be at least 1 second, not " + progressSeconds);
        }
        if (profile == null) {
            throw CliFailure.usage("gateway needs --profile NAME (or a subcommand: profiles)");
        }
        PrintWriter err = spec.commandLine().getErr();
        // The raw descriptors: standard output is the MCP stream, with nothing of ours in it.
        GatewayWiring.Serving gateway = runtime().gateway().serveStdio(actor(), profile, new FileInputStream(FileDescriptor.in),
                new FileOutputStream(FileDescriptor.out), Duration.ofSeconds(progressSeconds));
        err.println("countersign gateway: serving profile " + profile + " over stdio as " + actor().name() + " on "
                + runtime().describeStore());
        err.flush();
        // A host that stops its server sends SIGTERM: its runs end as a disconnect does, before the process exits.
        try (StopSignals signals = StopSignals.onStop(gateway::hostGone)) {
            gateway.awaitClosed();
        } finally {
            gateway.close();
        }
        return Cli.DONE;
    }
}
