package io.countersign.cli;

import io.countersign.engine.state.DamagedRunException;
import io.countersign.service.NotPermittedException;
import io.countersign.store.DamagedStoreException;
import io.countersign.store.LoginsNotAdoptedException;
import io.countersign.store.StoreException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;

/**
 * The {@code countersign} command: parses the arguments, runs the command over the service layer, and answers
 * with an exit code. Every failure is one line on the error stream.
 */
public final class Cli {
    /** The command did what was asked. */
    public static final int DONE = 0;
    /** Something went wrong that none of the other codes describes: a defect, reported in one line. */
    public static final int INTERNAL_ERROR = 1;
    /** The arguments, or a file or value they name, are not usable. */
    public static final int BAD_USAGE = 2;
    /** The store refused: a stale digest, not permitted, already decided, four eyes, an impossible change. */
    public static final int REFUSED = 3;
    /** The store or a model provider could not be reached or used. */
    public static final int UNAVAILABLE = 4;
    /** The store's file is damaged: nothing more is written to it; restore it from a backup. */
    public static final int DAMAGED = 5;
    /** The audit chain does not verify: a row or entry was changed, inserted, removed or reordered. */
    public static final int TAMPERED = 6;

    /** Held so that the level set on it lasts: java.util.logging keeps loggers only weakly. */
    private static final String SLF4J_PROVIDER = "slf4j.provider";
    private static final String LOG_FORMAT = "java.util.logging.SimpleFormatter.format";

    static {
        // Set before the first log record is written: a warning is then one line too, and never a stack trace.
        if (System.getProperty(LOG_FORMAT) == null) {
            System.setProperty(LOG_FORMAT, "countersign: %4$s: %5$s%n");
        }
    }

    private static final Logger MIGRATION_LOG = Logger.getLogger("org.flywaydb");

    private Cli() {
    }

    /**
     * Runs one command.
     *
     * @param env the process environment: {@code COUNTERSIGN_STORE} names the store when {@code --store} does not,
     *            and {@code COUNTERSIGN_ALLOW_IMPERSONATION=1} permits {@code --as}
     * @return the exit code
     */
    public static int run(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err) {
        return run(args, env, out, err, false);
    }

    /**
     * As {@link #run(String[], Map, PrintWriter, PrintWriter)}, in a process that exits with the code right after:
     * the store is closed the way {@link io.countersign.runtime.CountersignRuntime#closeBeforeExit()} says.
     */
    public static int runBeforeExit(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err) {
        return run(args, env, out, err, true);
    }

    private static int run(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err,
                           boolean exitsAfter) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            // without building the command tree: reading every command's annotations is most of a start
            out.println(CountersignCommand.Version.line());
            return DONE;
        }
        quietLibraries();
        CountersignCommand root = new CountersignCommand(env);
        CommandLine commandLine = new CommandLine(root);
        CommandTree.addCommands(commandLine, args);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler((problem, arguments) -> {
            String command = problem.getCommandLine().getCommandSpec().qualifiedName();
            err.println(command + ": " + oneLine(problem.getMessage()) + " (see: " + command + " --help)");
            return BAD_USAGE;
        });
        commandLine.setExecutionExceptionHandler((failure, failed, parsed) -> {
            err.println("countersign: " + oneLine(message(failure)));
            return exitCode(failure);
        });
        try {
            return commandLine.execute(args);
        } finally {
            if (exitsAfter) {
                root.closeBeforeExit();
            } else {
                root.close();
            }
        }
    }

    /**
     * Keeps the libraries' chatter off the error stream, where a script reads one line per failure: the schema
     * migration's progress, and the logging facade's notice that no logging backend is installed.
     */
    private static void quietLibraries() {
        MIGRATION_LOG.setLevel(Level.WARNING);
        if (System.getProperty(SLF4J_PROVIDER) == null) {
            System.setProperty(SLF4J_PROVIDER, "org.slf4j.helpers.NOP_FallbackServiceProvider");
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
    }

    /** The exit code that tells a script what kind of failure this is. */
    static int exitCode(Throwable failure) {
        if (failure instanceof CliFailure cli) {
            return cli.exitCode();
        }
        if (failure instanceof NotPermittedException || failure instanceof DamagedRunException
                || failure instanceof LoginsNotAdoptedException) {
            return REFUSED;
        }
        if (failure instanceof DamagedStoreException) {
            return DAMAGED;
        }
        if (failure instanceof StoreException) {
            return UNAVAILABLE;
        }
        if (failure instanceof IllegalArgumentException || failure instanceof UncheckedIOException
                || failure instanceof DateTimeParseException) {
            return BAD_USAGE;
        }
        return INTERNAL_ERROR;
    }

    private static String message(Throwable failure) {
        if (failure instanceof DamagedRunException damaged) {
            return damaged.getMessage() + "; end it with: countersign settle --fail " + damaged.runId();
        }
        if (exitCode(failure) == INTERNAL_ERROR) {
            return "internal error: " + failure.getClass().getSimpleName()
                    + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
        }
        return failure.getMessage();
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
