package io.countersign.app;

import io.countersign.console.ConsoleApplication;
import io.countersign.console.ConsoleContext;
import io.countersign.console.ConsoleOpening;
import io.countersign.console.ConsoleServices;
import io.countersign.console.ConsoleSettings;
import io.countersign.console.signin.SignInRequired;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.GatewayProfiles;
import io.countersign.service.Resumption;
import io.countersign.store.LoginRefusedException;
import io.countersign.store.StoreException;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Opens the console on a store: the embedded default unless {@code --store} or {@code COUNTERSIGN_STORE} names
 * another. The window shows at once; the store opens behind it (creating the demo workspace on a store with no
 * agents) and the tools of the enabled MCP servers import in the background; runs that a stopped process left in
 * between are resumed once the inbox has shown, and the store closes when the window closes.
 */
public final class ConsoleLauncher {
    // Held here: java.util.logging keeps loggers weakly, and a collected logger forgets its level.
    /** How often the console applies overdue deadlines; the cards show the time left to the second. */
    private static final Duration DEADLINE_SWEEP = Duration.ofSeconds(5);
    private static final Logger FLYWAY = Logger.getLogger("org.flywaydb");
    private static final Logger HIKARI = Logger.getLogger("com.zaxxer.hikari");
    private static final Logger LOG = Logger.getLogger(ConsoleLauncher.class.getName());
    /** Interrupted runs wait this long at most for the MCP servers' tools; a slower server imports them later. */
    private static final Duration REMOTE_TOOLS_WAIT = Duration.ofSeconds(2);

    private ConsoleLauncher() {
    }

    /**
     * Returns the process exit code: 0 after the window closed (also without signing in), 4 when the store could not be opened (the
     * window said why; so does stderr), 1 when the console could not start for another reason.
     */
    static int open(String storeOption, Map<String, String> environment) {
        // The libraries' start-up chatter is not for the person at the desk.
        FLYWAY.setLevel(Level.WARNING);
        HIKARI.setLevel(Level.WARNING);
        Opening opening = opening(storeOption, environment);
        ConsoleApplication.launch(opening);
        return opening.close();
    }

    /**
     * The opening the console starts with: the store {@code --store} or {@code COUNTERSIGN_STORE} names, else the
     * team store this person last signed in to (see {@link ConsoleSettings}), else the embedded default.
     */
    public static Opening opening(String storeOption, Map<String, String> environment) {
        Path settingsFile = ConsoleSettings.defaultFile(environment);
        StoreLocation location = StoreLocation.resolve(storeOption == null && !named(environment)
                ? ConsoleSettings.rememberedLogin(settingsFile)
                        .map(login -> new StoreLocation.Postgres(login.url()).as(login.user()).jdbcUrl())
                        .orElse(null)
                : storeOption, environment);
        return new Opening(location, StoreLocation.dataFolder(location, environment), settingsFile);
    }

    /** Whether the environment names the store; else the team store the person last signed in to is opened. */
    private static boolean named(Map<String, String> environment) {
        String value = environment.get(StoreLocation.ENVIRONMENT_VARIABLE);
        return value != null && !value.isBlank();
    }

    /** The store opened behind the window, and closed after it. */
    public static final class Opening implements ConsoleOpening {
        private final StoreLocation location;
        private final Path dataFolder;
        private final Path settingsFile;
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile CountersignRuntime runtime;
        private volatile RuntimeException failure;

        Opening(StoreLocation location, Path dataFolder, Path settingsFile) {
            this.location = location;
            this.dataFolder = dataFolder;
            this.settingsFile = settingsFile;
        }

        @Override
        public String store() {
            return location.describe();
        }

        @Override
        public Path settingsFile() {
            return settingsFile;
        }

        @Override
        public ConsoleContext open() {
            try {
                runtime = CountersignRuntime.openDeferringRecovery(location);
                return opened();
            } catch (LoginRefusedException e) {
                // the person is asked for the password; cancelling that quits without a failure
                throw signInRequired((StoreLocation.Postgres) location, e);
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            } finally {
                done.countDown();
            }
        }

        @Override
        public ConsoleContext signIn(String url, String user, char[] password) {
            StoreLocation.Postgres as = new StoreLocation.Postgres(url).as(user);
            try {
                runtime = CountersignRuntime.openDeferringRecovery(as, new String(password));
            } catch (LoginRefusedException e) {
                throw signInRequired(as, e);
            }
            return opened();
        }

        private ConsoleContext opened() {
            var actor = runtime.localUser();
            runtime.ensureDemo(dataFolder);
            return ConsoleContext.of(servicesOf(runtime), actor, runtime.describeStore());
        }

        private static SignInRequired signInRequired(StoreLocation.Postgres location, LoginRefusedException e) {
            return new SignInRequired(location.withoutLogin(), e.user().orElse(""),
                    e.reason() == LoginRefusedException.Reason.WRONG_PASSWORD ? SignInRequired.Refusal.WRONG_PASSWORD
                            : SignInRequired.Refusal.NO_PASSWORD, e.getMessage());
        }

        @Override
        public void afterInboxShown() {
            for (Resumption resumption : runtime.resumeInterrupted(REMOTE_TOOLS_WAIT)) {
                if (resumption instanceof Resumption.NotCarriedOut failed) {
                    LOG.warning(() -> "run " + failed.runId() + " was not resumed: " + failed.problem());
                }
            }
            // Off the FX thread: a denial at a deadline carries the run on, calling its model.
            runtime.sweepDeadlinesEvery(DEADLINE_SWEEP);
        }

        /**
         * Waits for an opening still under way (the console starts it before the window can close), closes what
         * it opened, and returns the exit code: 0 also when the person cancelled signing in.
         */
        public int close() {
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (runtime != null) {
                runtime.close();
            }
            if (failure == null) {
                return 0;
            }
            System.err.println(failure.getMessage());
            return failure instanceof StoreException ? 4 : 1;
        }
    }

    /** The services the console's screens call, over one runtime. */
    public static ConsoleServices servicesOf(CountersignRuntime runtime) {
        return new ConsoleServices(runtime.runs(), runtime.events(), runtime.audit(), runtime.settings(),
                runtime.users(), runtime.askedInputs(), runtime.decisionStats(), runtime.webhooks(),
                runtime.grants(), runtime.servers(), new GatewayProfiles(runtime.store().configurations(),
                runtime.store().servers(), runtime.store().users()), runtime.schemas(), runtime.execution(),
                runtime.rules());
    }
}
