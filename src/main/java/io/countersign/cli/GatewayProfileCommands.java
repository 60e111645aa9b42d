package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.agent.DeadlineRule;
import io.countersign.service.GatewayProfiles;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gateway profiles add|list|remove}: the profiles a gateway serves hosts with. */
final class GatewayProfileCommands {
    private GatewayProfileCommands() {
    }

    @Command(name = "profiles", description = "List the gateway profiles, or add or remove one.",
            subcommands = {Add.class, Remove.class})
    static final class Profiles extends Subcommand {
        @Override
        public Integer call() {
            ArrayNode profiles = Views.array();
            runtime().gateway().profiles().list(actor()).forEach(profile -> profiles.add(view(profile)));
            return print(profiles);
        }
    }

    @Command(name = "add", description = "Add a gateway profile, or replace the one of the same name: the MCP"
            + " server records it fronts, tools allowed by name, its trust zone, four-eyes and decision deadline.")
    static final class Add extends Subcommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "The profile's name, as `gateway --profile`"
                + " names it.")
        String name;

        @Option(names = "--server", paramLabel = "NAME", description = "A server record whose tools it offers"
                + " (repeatable).")
        List<String> servers = new ArrayList<>();

        @Option(names = "--tool", paramLabel = "NAME", description = "A tool it offers by its name in the registry,"
                + " such as files.read_text_file (repeatable).")
        List<String> tools = new ArrayList<>();

        @Option(names = "--zone", paramLabel = "ZONE", defaultValue = "local", description = "The trust zone of the"
                + " host: local, privateHosted, externalEu or externalGlobal (default: ${DEFAULT-VALUE}).")
        String zone;

        @Option(names = "--four-eyes", description = "A card of its runs needs an approver other than the person"
                + " the gateway runs as.")
        boolean fourEyes;

        @Option(names = "--deadline", paramLabel = "SPAN", description = "How long a card may wait: 90s, 30m, 8h.")
        String deadline;

        @Option(names = "--fallback", paramLabel = "ACTION", description = "At the deadline: deny, cancel or"
                + " escalate.")
        String fallback;

        @Override
        public Integer call() {
            return print(view(runtime().gateway().profiles().add(actor(), name, servers, tools, zone, fourEyes,
                    deadline, fallback)));
        }
    }

    @Command(name = "remove", description = "Remove a gateway profile; the runs it served stay in the history.")
    static final class Remove extends Subcommand {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Override
        public Integer call() {
            runtime().gateway().profiles().remove(actor(), name);
            return print(Views.object().put("removed", name));
        }
    }

    private static ObjectNode view(GatewayProfiles.Profile profile) {
        ObjectNode view = Views.object().put("name", profile.name()).put("trustZone", profile.trustZone())
                .put("fourEyes", profile.fourEyes());
        profile.toolGroups().forEach(view.putArray("toolGroups")::add);
        ArrayNode allowed = view.putArray("allowedTools");
        profile.allowedTools().forEach(allowed::add);
        if (profile.deadlines().agentRule() != null) {
            view.put("decisionDeadline", DeadlineRule.formatSpan(profile.deadlines().agentRule().span()))
                    .put("onDeadline", profile.deadlines().agentRule().action().code());
        }
        return view;
    }
}
