package io.countersign.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/**
 * The commands under {@code countersign}, and the tree picocli is given for one command line: only the command it
 * names, with that command's own subcommands. Reading every command's annotations (about 70 options over 35
 * classes) was the largest part of a command's start; a line that names no known command gets them all, so that
 * help, suggestions and errors read as before.
 */
final class CommandTree {
    /** By name, in the order the help lists them; each name is its class's {@code @Command} name. */
    static final Map<String, Class<?>> COMMANDS = commands();
    /** The root's options that take a value: the command's name comes after their values. */
    private static final Set<String> VALUED_OPTIONS = Set.of("--store", "--as", "--format");

    private CommandTree() {
    }

    /** Adds to the root the command that {@code args} name, or every command when they name none of them. */
    static void addCommands(CommandLine root, String[] args) {
        Class<?> named = COMMANDS.get(commandName(args));
        if (named != null) {
            root.addSubcommand(named);
            return;
        }
        for (Class<?> command : COMMANDS.values()) {
            root.addSubcommand(command);
        }
    }

    /** The first argument that is neither one of the root's options nor its value; null at any other option. */
    static String commandName(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (VALUED_OPTIONS.contains(arg)) {
                i++;
            } else if (arg.startsWith("-")) {
                if (VALUED_OPTIONS.stream().noneMatch(option -> arg.startsWith(option + "="))) {
                    return null;
                }
            } else {
                return arg;
            }
        }
        return null;
    }

    private static Map<String, Class<?>> commands() {
        Map<String, Class<?>> commands = new LinkedHashMap<>();
        commands.put("agents", AgentCommands.Agents.class);
        commands.put("run", RunCommands.Start.class);
        commands.put("inbox", RunCommands.Inbox.class);
        commands.put("show", RunCommands.Show.class);
        commands.put("decide", RunCommands.Decide.class);
        commands.put("input", RunCommands.Input.class);
        commands.put("settle", SettleCommand.class);
        commands.put("grants", GrantCommands.GrantsGroup.class);
        commands.put("events", EventCommands.Events.class);
        commands.put("audit", AuditCommands.AuditGroup.class);
        commands.put("stats", StatsCommands.StatsGroup.class);
        commands.put("tools", SettingCommands.Tools.class);
        commands.put("tool", SettingCommands.ToolSet.class);
        commands.put("server", SettingCommands.ServerSet.class);
        commands.put("servers", ServerCommands.Servers.class);
        commands.put("users", UserCommands.Users.class);
        commands.put("user", UserCommands.UserSet.class);
        commands.put("demo", DemoCommand.class);
        commands.put("worker", WorkerCommand.class);
        commands.put("gateway", GatewayCommand.class);
        commands.put("store", StoreCommands.StoreGroup.class);
        commands.put("deadlines", DeadlineCommands.Sweep.class);
        commands.put("extend", DeadlineCommands.Extend.class);
        commands.put("webhooks", WebhookCommands.Webhooks.class);
        commands.put("rules", RuleCommands.Rules.class);
        return commands;
    }
}
