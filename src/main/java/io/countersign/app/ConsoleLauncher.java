package io.countersign.app;

import io.countersign.console.ConsoleApplication;
import io.countersign.console.ConsoleContext;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Opens the console on a store: the embedded default unless {@code --store} or {@code COUNTERSIGN_STORE} names
 * another. Imports the tools of the enabled MCP servers in the background, restarts runs that a stopped process
 * left in between, creates the demo workspace on a store with no agents, and closes the store when the window
 * closes.
 */
final class ConsoleLauncher {
    // Held here: java.util.logging keeps loggers weakly, and a collected logger forgets its level.
    private static final Logger FLYWAY = Logger.getLogger("org.flywaydb");
    private static final Logger HIKARI = Logger.getLogger("com.zaxxer.hikari");
    /** The window opens after this at the latest; a slower MCP server imports its tools once it is ready. */
    private static final Duration REMOTE_TOOLS_WAIT = Duration.ofSeconds(2);

    private ConsoleLauncher() {
    }

    /** Returns the process exit code: 0 after the window closed, 4 when the store cannot be opened. */
    static int open(String storeOption, Map<String, String> environment) {
        // The libraries' start-up chatter is not for the person at the desk.
        FLYWAY.setLevel(Level.WARNING);
        HIKARI.setLevel(Level.WARNING);
        StoreLocation location = StoreLocation.resolve(storeOption, environment);
        try (CountersignRuntime runtime = CountersignRuntime.openWithRemoteTools(location, REMOTE_TOOLS_WAIT)) {
            var actor = runtime.localUser();
            runtime.ensureDemo(dataFolder(location, environment));
            ConsoleApplication.launch(ConsoleContext.of(runtime.consoleServices(), actor, runtime.describeStore()));
            return 0;
        } catch (io.countersign.store.StoreException e) {
            System.err.println(e.getMessage());
            return 4;
        }
    }

    /** The demo workspace lives beside an embedded store's file, else in the default data folder. */
    private static Path dataFolder(StoreLocation location, Map<String, String> environment) {
        if (location instanceof StoreLocation.SqliteFile file) {
            return file.file().toAbsolutePath().getParent();
        }
        StoreLocation fallback = StoreLocation.resolve(null, Map.of("HOME",
                environment.getOrDefault("HOME", System.getProperty("user.home"))));
        return ((StoreLocation.SqliteFile) fallback).file().getParent();
    }
}
