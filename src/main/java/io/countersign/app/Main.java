package io.countersign.app;

import io.countersign.cli.Cli;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * Starts Countersign: the console with no arguments (or only {@code --store}), the command line otherwise. Not
 * an {@code Application}: on the class path, JavaFX refuses to start a main class that is one.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.exit(ConsoleLauncher.open(null, System.getenv()));
        }
        if (args.length == 2 && args[0].equals("--store")) {
            System.exit(ConsoleLauncher.open(args[1], System.getenv()));
        }
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(Cli.runBeforeExit(args, System.getenv(), out, err));
    }
}
