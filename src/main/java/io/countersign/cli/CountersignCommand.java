package io.countersign.cli;

import io.countersign.engine.Actor;
import io.countersign.engine.ProjectVersion;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The root command: the options every command shares, and the store they work on, opened on first use. Its
 * commands are added by {@link CommandTree}.
 */
@Command(name = "countersign", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        versionProvider = CountersignCommand.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = "Supervise LLM agents from a terminal: start runs, decide their cards, read what was refused,"
                + " govern tools and users, and run workers that share a store.")
final class CountersignCommand implements Runnable, AutoCloseable {
    /** Set to 1 to let {@code --as} act as another user; for tests, never for people. */
    static final String IMPERSONATION_VARIABLE = "COUNTERSIGN_ALLOW_IMPERSONATION";
    /** A backstop only: every server's attempt ends within its own connect timeout, at most 5 minutes. */
    private static final Duration REMOTE_TOOLS_WAIT = Duration.ofMinutes(6);

    @Option(names = "--store", paramLabel = "PATH|URL", scope = ScopeType.INHERIT,
            description = "The store: a SQLite file, or a jdbc:postgresql:// URL (default: $COUNTERSIGN_STORE, else"
                    + " countersign.db in the user's data folder).")
    String store;

    @Option(names = "--as", paramLabel = "USER", scope = ScopeType.INHERIT,
            description = "Act as this user instead of the operating-system user; only on a SQLite store and when "
                    + IMPERSONATION_VARIABLE + "=1 is set (tests).")
    String as;

    @Option(names = "--format", paramLabel = "json|table|csv", scope = ScopeType.INHERIT, defaultValue = "json",
            description = "How results are printed (default: ${DEFAULT-VALUE}).")
    Output.Format format;

    @Spec
    CommandSpec spec;

    private final Map<String, String> env;
    private CountersignRuntime runtime;
    private Actor actor;

    CountersignCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: "
                + String.join(", ", spec.subcommands().keySet()));
    }

    /**
     * The runtime over the chosen store, opened on first use for the command's work; for work that imports every
     * enabled MCP server's tools, it waits until each has imported or failed (each within its connect timeout).
     */
    CountersignRuntime runtime(CountersignRuntime.Work work) {
        if (runtime == null) {
            StoreLocation location = location();
            if (as != null && location instanceof StoreLocation.Postgres) {
                throw CliFailure.usage("--as cannot be used with a PostgreSQL store: there the person is the"
                        + " database login the server authenticated; connect as them with user=NAME in the store URL");
            }
            if (as != null && !"1".equals(env.get(IMPERSONATION_VARIABLE))) {
                throw CliFailure.usage("--as is refused: acting as another user is only allowed where "
                        + IMPERSONATION_VARIABLE + "=1 is set, for tests");
            }
            runtime = CountersignRuntime.open(location, work, REMOTE_TOOLS_WAIT);
        }
        return runtime;
    }

    /** The store the options or the environment name, else the default file. */
    StoreLocation location() {
        return StoreLocation.resolve(store, env);
    }

    /**
     * Who acts: the {@code --as} user, else the database login on PostgreSQL or the operating-system user on SQLite
     * (the first user of a new store is admin).
     */
    Actor actor(CountersignRuntime.Work work) {
        if (actor == null) {
            actor = as != null ? runtime(work).user(as) : runtime(work).localUser();
        }
        return actor;
    }

    /**
     * Where the person's own files live beside the chosen store, such as the gateway's token: a SQLite store's
     * folder, else the default data folder. Opens no store.
     */
    Path dataFolder() {
        return StoreLocation.dataFolder(StoreLocation.resolve(store, env), env);
    }

    Output output() {
        return new Output(format, spec.commandLine().getOut());
    }

    @Override
    public void close() {
        if (runtime != null) {
            runtime.close();
        }
    }

    /** As {@link #close()}, in a process that exits right after the command. */
    void closeBeforeExit() {
        if (runtime != null) {
            runtime.closeBeforeExit();
        }
    }

    /** The version this build was made from, as Maven wrote it into the class path. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {line()};
        }

        /** {@code countersign VERSION}, as {@code countersign --version} prints it. */
        static String line() {
            return "countersign " + ProjectVersion.current();
        }
    }
}
