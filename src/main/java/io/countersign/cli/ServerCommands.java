package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.service.ServerCheck;
import io.countersign.service.ServerForm;
import io.countersign.service.ServerResult;
import io.countersign.service.SettingRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code servers}: list, add, edit, test and remove MCP server records. */
final class ServerCommands {

    private ServerCommands() {
    }

    @Command(name = "servers", description = "The MCP server records, each with its declaration, which decides"
            + " whether the server's tools need approval: approval-bound (every call waits for an operator), not"
            + " approval-bound, or not declared (\"not declared: runs without approval\"); a tool declared by itself"
            + " (servers set-tool) follows its own declaration instead. Admins only.",
            subcommands = {ListServers.class, Show.class, Add.class, Edit.class, SetTool.class, Test.class,
                    Remove.class})
    static final class Servers extends Subcommand {
        @Override
        public Integer call() {
            return list(this);
        }
    }

    @Command(name = "list", description = "The MCP server records, by name. Admins only.")
    static final class ListServers extends Subcommand {
        @Override
        public Integer call() {
            return list(this);
        }
    }

    private static int list(Subcommand command) {
        ArrayNode servers = Views.array();
        command.runtime().servers().list(command.actor()).forEach(server -> servers.add(view(command, server)));
        return command.print(servers);
    }

    /** A record with the tools declared by themselves. */
    private static ObjectNode view(Subcommand command, McpServerRecord server) {
        return Views.server(server, command.runtime().servers().toolDeclarations(command.actor(), server.name()));
    }

    @Command(name = "show", description = "One MCP server record, with its declaration and the tools declared by"
            + " themselves. Admins only.")
    static final class Show extends Subcommand {
        @Parameters(paramLabel = "NAME", description = "The server.")
        String name;

        @Override
        public Integer call() {
            return print(view(this, record(this, name)));
        }
    }

    private static McpServerRecord record(Subcommand command, String name) {
        return command.runtime().servers().list(command.actor()).stream()
                .filter(server -> server.name().equals(name)).findFirst()
                .orElseThrow(() -> CliFailure.refused(noSuchServer(name)));
    }

    @Command(name = "set-tool", description = "Declare a single tool of a server approval-bound or not, whatever"
            + " the server's declaration (a tool's own declaration wins over its server's), or with --follow-server"
            + " take its own declaration away, so that it follows the server's again. --preview shows what it would"
            + " change without saving. Admins only.")
    static final class SetTool extends SettingCommands.SettingChange {
        @Parameters(index = "0", paramLabel = "NAME", description = "The server.")
        String name;

        @Parameters(index = "1", paramLabel = "TOOL", description = "The tool, as countersign tools lists it, with"
                + " or without the NAME. in front (write_file or files.write_file).")
        String tool;

        @Option(names = "--approval-bound", arity = "1", paramLabel = "true|false", description = "The tool's own"
                + " declaration: true, every call waits for an operator's approval; false, it runs without one.")
        Boolean approvalBound;

        @Option(names = "--follow-server", description = "Take the tool's own declaration away: it follows the"
                + " server's declaration again.")
        boolean followServer;

        @Override
        public Integer call() {
            if ((approvalBound == null) == !followServer) {
                throw CliFailure.usage("servers set-tool " + name + " " + tool + " needs exactly one of"
                        + " --approval-bound true|false (the tool's own declaration) and --follow-server (back to"
                        + " the server's declaration)");
            }
            record(this, name);
            String qualified = tool.startsWith(name + ".") ? tool : name + "." + tool;
            ApprovalDeclaration declaration = followServer ? ApprovalDeclaration.NOT_DECLARED
                    : ApprovalDeclaration.of(approvalBound);
            return apply(List.of(new SettingRequest.ToolDeclaration(qualified, declaration)));
        }
    }

    /** The fields of a server record, shared by {@code add} and {@code edit}; a field left out is not given. */
    static final class Fields {
        @Option(names = "--command", paramLabel = "PROGRAM", description = "Start the server as this program,"
                + " speaking MCP over its standard input and output (stdio).")
        String command;

        @Option(names = "--arg", paramLabel = "ARG", description = "An argument of the program; repeat for each"
                + " (write --arg=-x for one that starts with a dash).")
        List<String> args;

        @Option(names = "--env", paramLabel = "NAME=VALUE", description = "An environment variable of the program;"
                + " a secret one takes a reference env:VARIABLE, read from this process's environment when the"
                + " server is connected.")
        Map<String, String> env;

        @Option(names = "--url", paramLabel = "URL", description = "Reach the server over Streamable HTTP at this"
                + " http or https URL.")
        String url;

        @Option(names = "--header", paramLabel = "NAME=VALUE", description = "A request header; one that carries"
                + " credentials takes a reference env:VARIABLE.")
        Map<String, String> headers;

        @Option(names = "--enabled", arity = "1", paramLabel = "true|false", description = "A disabled server is not"
                + " connected and offers no tools.")
        Boolean enabled;

        @Option(names = "--approval-bound", arity = "1", paramLabel = "true|false", description = "The declaration:"
                + " true, every call of the server's tools waits for an operator's approval; false, they run"
                + " without one. Required by add. A server without a declaration runs its tools without approval,"
                + " whatever they do.")
        Boolean approvalBound;

        @Option(names = "--group", paramLabel = "GROUP", description = "The tool group of its tools (default: the"
                + " server's name).")
        String group;

        @Option(names = "--data-class", paramLabel = "CLASS", description = "The data class of its tools:"
                + " publicContent, editorContent, sourceCode, internalConfiguration, systemDiagnostics,"
                + " secretAdjacent (default).")
        String dataClass;

        @Option(names = "--timeout", paramLabel = "SECONDS", description = "How long one tool call may take"
                + " (default: 60).")
        Long timeout;

        @Option(names = "--connect-timeout", paramLabel = "SECONDS", description = "How long starting or reaching"
                + " the server and the handshake may take (default: 30).")
        Long connectTimeout;

        ServerForm form() {
            return new ServerForm(command, args, env, url, headers, enabled, approvalBound, group, dataClass,
                    seconds(timeout, "--timeout"), seconds(connectTimeout, "--connect-timeout"));
        }

        private static Duration seconds(Long value, String option) {
            if (value == null) {
                return null;
            }
            if (value < 1) {
                throw CliFailure.usage(option + " takes a number of seconds of at least 1, got " + value);
            }
            return Duration.ofSeconds(value);
        }
    }

    /** Why add asks: what a server without a declaration does is easy to miss. */
    static final String DECLARATION_REQUIRED = "servers add needs the server's declaration: --approval-bound true"
            + " makes every call of its tools wait for an operator's approval, --approval-bound false lets them run"
            + " without one (a server without a declaration would run its tools without approval, whatever they do)";

    @Command(name = "add", description = "Add an MCP server: --command with --arg and --env (stdio), or --url with"
            + " --header (Streamable HTTP), and its declaration, --approval-bound true or false. Admins only.")
    static final class Add extends Subcommand {
        @Parameters(paramLabel = "NAME", description = "The server's name; its tools are named NAME.TOOL.")
        String name;

        @Mixin
        Fields fields;

        @Option(names = "--oauth", description = "The server (--url) authorizes through OAuth: sign in now in the"
                + " browser (the address is printed too); the tokens go to your credential store, never the store."
                + " A server that answers 401 is signed in to on first use anyway.")
        boolean oauth;

        @Option(names = "--oauth-client-id", paramLabel = "ID", description = "With --oauth: a client id registered"
                + " beforehand with the server's authorization server, for one that offers no dynamic registration.")
        String clientId;

        @Override
        public Integer call() {
            if (fields.approvalBound == null) {
                throw CliFailure.usage(DECLARATION_REQUIRED);
            }
            if (clientId != null && !oauth) {
                throw CliFailure.usage("--oauth-client-id goes with --oauth");
            }
            if (oauth && fields.url == null) {
                throw CliFailure.usage("--oauth needs --url: only a Streamable HTTP server signs in through OAuth");
            }
            if (oauth && fields.headers != null && fields.headers.keySet().stream()
                    .anyMatch(header -> header.equalsIgnoreCase("Authorization"))) {
                throw CliFailure.usage("--oauth and an Authorization header exclude each other: the sign-in provides"
                        + " the Authorization header");
            }
            ServerResult result = runtime().servers().add(actor(), name, fields.form());
            if (!oauth || !(result instanceof ServerResult.Saved)) {
                return saved(this, result);
            }
            ServerCheck check = runtime().servers().signIn(actor(), name, Optional.ofNullable(clientId));
            if (check instanceof ServerCheck.Unreachable failed) {
                throw new CliFailure(Cli.UNAVAILABLE, "server \"" + name + "\" was added, but the sign-in failed: "
                        + failed.message() + " (" + failed.problem() + "); try again with: countersign servers test "
                        + name);
            }
            return saved(this, result);
        }
    }

    @Command(name = "edit", description = "Change the fields given; the others keep their values. --arg, --env"
            + " and --header replace the lists they name. Admins only.")
    static final class Edit extends Subcommand {
        @Parameters(paramLabel = "NAME", description = "The server.")
        String name;

        @Mixin
        Fields fields;

        @Override
        public Integer call() {
            ServerForm form = fields.form();
            if (form.equals(ServerForm.empty())) {
                throw CliFailure.usage("servers edit " + name + " changes nothing; give the fields to change (see:"
                        + " countersign servers edit --help)");
            }
            return saved(this, runtime().servers().edit(actor(), name, form));
        }
    }

    private static int saved(Subcommand command, ServerResult result) {
        if (result instanceof ServerResult.Saved saved) {
            ObjectNode node = view(command, saved.server());
            ArrayNode changes = node.putArray("changes");
            saved.changes().forEach(change -> changes.add(Views.change(change)));
            return command.print(node);
        }
        throw refusal(result);
    }

    private static CliFailure refusal(ServerResult result) {
        if (result instanceof ServerResult.NameTaken taken) {
            return CliFailure.refused("a server named \"" + taken.name() + "\" exists already; change it with"
                    + " servers edit " + taken.name());
        }
        return CliFailure.refused(noSuchServer(((ServerResult.NoSuchServer) result).name()));
    }

    private static String noSuchServer(String name) {
        return "no server is named \"" + name + "\" (see: countersign servers list)";
    }

    @Command(name = "test", description = "Connect to a server as its record says (also when disabled), complete"
            + " the handshake and list its tools; saves nothing. Exits 4 when the server cannot be used. Admins"
            + " only.")
    static final class Test extends Subcommand {
        @Parameters(paramLabel = "NAME", description = "The server.")
        String name;

        @Override
        public Integer call() {
            ServerCheck check = runtime().servers().test(actor(), name);
            if (check instanceof ServerCheck.NoSuchServer) {
                throw CliFailure.refused(noSuchServer(name));
            }
            if (check instanceof ServerCheck.Unreachable unreachable) {
                throw new CliFailure(Cli.UNAVAILABLE, unreachable.message() + " (" + unreachable.problem() + ")");
            }
            ServerCheck.Reachable reachable = (ServerCheck.Reachable) check;
            ObjectNode node = Views.object().put("server", name);
            Views.strings(node, "tools", reachable.tools());
            ArrayNode skipped = node.putArray("skipped");
            reachable.skipped().forEach(skip -> skipped.addObject().put("tool", skip.remoteName())
                    .put("reason", skip.reason()));
            reachable.credentialStore().ifPresent(store -> node.put("oauthTokensIn", store));
            return print(node);
        }
    }

    @Command(name = "remove", description = "Remove a server record and its declaration; its tools are no longer"
            + " offered. Admins only.")
    static final class Remove extends Subcommand {
        @Parameters(paramLabel = "NAME", description = "The server.")
        String name;

        @Override
        public Integer call() {
            ServerResult result = runtime().servers().remove(actor(), name);
            if (result instanceof ServerResult.Removed removed) {
                ObjectNode node = Views.object().put("removed", removed.name());
                ArrayNode changes = node.putArray("changes");
                removed.changes().forEach(change -> changes.add(Views.change(change)));
                return print(node);
            }
            throw refusal(result);
        }
    }
}
