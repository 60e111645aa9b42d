package io.countersign.console.settings;

import io.countersign.engine.agent.DeadlineRule;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.service.GatewayProfiles.Profile;
import java.util.List;

/**
 * One gateway profile as the settings screen lists it: the server records it fronts, the tools it allows by name,
 * its trust zone, four-eyes and deadline, and the command a host starts to reach it.
 */
public record GatewayProfileRow(String name, String servers, String tools, String zone, String fourEyes,
                                String deadline) {

    /** The server command an MCP host is given for this profile. */
    public String command() {
        return commandFor(name);
    }

    static String commandFor(String profile) {
        return "countersign gateway --profile " + profile;
    }

    /**
     * The profile with its groups shown as the server records that give them; a group no record gives (its
     * server removed since) is shown as it is stored.
     */
    static GatewayProfileRow of(Profile profile, List<McpServerRecord> records, String noTools, String yes, String no,
                                String noDeadline) {
        List<String> servers = profile.toolGroups().stream().flatMap(group -> {
            List<String> named = records.stream().filter(record -> record.group().equals(group))
                    .map(McpServerRecord::name).toList();
            return named.isEmpty() ? java.util.stream.Stream.of(group) : named.stream();
        }).distinct().toList();
        DeadlineRule rule = profile.deadlines().agentRule();
        return new GatewayProfileRow(profile.name(), String.join(", ", servers),
                profile.allowedTools().isEmpty() ? noTools : String.join(", ", profile.allowedTools()),
                profile.trustZone(), profile.fourEyes() ? yes : no,
                rule == null ? noDeadline : DeadlineRule.formatSpan(rule.span()) + " → " + rule.action().code());
    }
}
