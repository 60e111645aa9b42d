package io.countersign.app;

/**
 * The entry point. With no arguments, or only {@code --store}, it opens the console; otherwise it runs the
 * command line. Not an {@code Application}: on the class path, JavaFX refuses to start a main class that is one.
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
        System.err.println("the command line is not part of this build yet; run without arguments for the console");
        System.exit(2);
    }
}
