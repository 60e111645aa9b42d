package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.SettingRequest;
import io.countersign.service.SettingResult;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tools}, {@code tools changes}, {@code tool set}, {@code server set}. */
final class SettingCommands {

    private SettingCommands() {
    }

    @Command(name = "tools", description = "Every tool, how it is governed, and why its approval is fixed where it"
            + " is. Admins only.", subcommands = Changes.class)
    static final class Tools extends Subcommand {
        @Override
        CountersignRuntime.Work work() {
            return CountersignRuntime.Work.GOVERN_TOOLS;
        }

        @Override
        public Integer call() {
            ArrayNode tools = Views.array();
            runtime().settings().tools(actor()).forEach(tool -> tools.add(Views.tool(tool)));
            return print(tools);
        }
    }

    @Command(name = "changes", description = "The recorded admin changes (settings, users, roles), newest first."
            + " Supervisors and admins.")
    static final class Changes extends Subcommand {
        @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "At most this many"
                + " (default: ${DEFAULT-VALUE}).")
        int limit;

        @Override
        public Integer call() {
            ArrayNode changes = Views.array();
            runtime().settings().changes(actor(), limit).forEach(change -> changes.add(Views.change(change)));
            return print(changes);
        }
    }

    @Command(name = "tool", description = "Change a tool's settings.", subcommands = ToolSet.SetTool.class)
    static final class ToolSet extends Subcommand {
        @Override
        public Integer call() {
            throw CliFailure.usage("name what to do: tool set NAME [--enabled true|false]"
                    + " [--approval-bound true|false]");
        }

        @Command(name = "set", description = "Turn a tool on or off, or set whether a configurable tool needs"
                + " approval; --preview shows what it would change without saving. Admins only.")
        static final class SetTool extends SettingChange {
            @Parameters(paramLabel = "NAME", description = "The tool.")
            String name;

            @Option(names = "--enabled", arity = "1", paramLabel = "true|false", description = "A disabled tool is"
                    + " offered to no agent.")
            Boolean enabled;

            @Option(names = "--approval-bound", arity = "1", paramLabel = "true|false", description = "For a"
                    + " configurable tool: true, every call waits for an operator's approval; false, it runs"
                    + " without one. For a remote tool: its own declaration, whatever its server's (as servers"
                    + " set-tool).")
            Boolean approvalBound;

            @Override
            public Integer call() {
                List<SettingRequest> requests = new ArrayList<>();
                if (enabled != null) {
                    requests.add(new SettingRequest.ToolEnabled(name, enabled));
                }
                if (approvalBound != null) {
                    requests.add(new SettingRequest.ToolApprovalBound(name, approvalBound));
                }
                if (requests.isEmpty()) {
                    throw CliFailure.usage("tool set " + name + " changes nothing; give --enabled or"
                            + " --approval-bound");
                }
                return apply(requests);
            }
        }
    }

    @Command(name = "server", description = "Change a remote server's record.", subcommands = ServerSet.SetServer.class)
    static final class ServerSet extends Subcommand {
        @Override
        public Integer call() {
            throw CliFailure.usage("name what to do: server set NAME --approval-bound true|false");
        }

        @Command(name = "set", description = "Declare whether the tools of a remote server need approval: true,"
                + " every call waits for an operator; false, they run without one. A server not declared yet runs"
                + " its tools without approval; declaring it is a change like any other. --preview shows what it"
                + " would change without saving. Admins only.")
        static final class SetServer extends SettingChange {
            @Parameters(paramLabel = "NAME", description = "The server record.")
            String name;

            @Option(names = "--approval-bound", required = true, arity = "1", paramLabel = "true|false",
                    description = "The declaration: true, every call of the server's tools waits for an operator's"
                            + " approval; false, they run without one.")
            Boolean approvalBound;

            @Override
            public Integer call() {
                return apply(List.of(new SettingRequest.ServerApprovalBound(name, approvalBound)));
            }
        }
    }

    /**
     * A command that changes tool settings, by name: the enabled servers' tools are imported first, and
     * {@code --preview} shows what the change would do instead of saving it.
     */
    abstract static class SettingChange extends Subcommand {
        @Option(names = "--preview", description = "Show the effect; save nothing.")
        boolean preview;

        @Override
        CountersignRuntime.Work work() {
            return CountersignRuntime.Work.GOVERN_TOOLS;
        }

        /** Makes the changes, or with {@code --preview} shows what they would do; a refusal exits 3 with its reasons. */
        int apply(List<SettingRequest> requests) {
            if (preview) {
                return print(Views.preview(runtime().settings().preview(actor(), requests)));
            }
            SettingResult result = runtime().settings().change(actor(), requests);
            if (result instanceof SettingResult.Refused refused) {
                throw CliFailure.refused(String.join("; ", refused.reasons()));
            }
            ArrayNode changes = Views.array();
            ((SettingResult.Saved) result).changes().forEach(change -> changes.add(Views.change(change)));
            ObjectNode node = Views.object();
            node.set("changes", changes);
            return print(node, Output.Table.of(changes));
        }
    }
}
