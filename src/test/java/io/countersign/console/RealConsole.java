package io.countersign.console;

import io.countersign.app.ConsoleLauncher;
import io.countersign.console.common.Theme;
import io.countersign.engine.Actor;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.RunService;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The console over the whole real runtime: a SQLite store in a temporary folder with the demo workspace, the
 * real run service behind a guard that notes calls on the JavaFX thread, and a background executor.
 */
final class RealConsole implements AutoCloseable {
    private final Path folder;
    private final StoreLocation location;
    private final CountersignRuntime runtime;
    private final FxThreadGuard guard = new FxThreadGuard();
    private final ExecutorService executor = Executors.newFixedThreadPool(2, work -> {
        Thread thread = new Thread(work, "console-test-worker");
        thread.setDaemon(true);
        return thread;
    });
    private final List<CountersignRuntime> others = new ArrayList<>();
    private final ConsoleServices services;
    private ConsoleWindow window;

    private RealConsole(Path folder) {
        this(folder, CountersignRuntime::open);
    }

    private RealConsole(Path folder, Function<StoreLocation, CountersignRuntime> opening) {
        this.folder = folder;
        this.location = new StoreLocation.SqliteFile(folder.resolve("countersign.db"));
        this.runtime = opening.apply(location);
        this.services = guard.wrap(ConsoleLauncher.servicesOf(runtime));
    }

    /** A store with the demo workspace: three runs wait, one finished. */
    static RealConsole withDemo(Path folder) {
        RealConsole console = new RealConsole(folder);
        console.runtime.localUser();
        console.runtime.ensureDemo(folder);
        return console;
    }

    /** A new store with no agents and no runs: the inbox is empty. */
    static RealConsole empty(Path folder) {
        RealConsole console = new RealConsole(folder);
        console.runtime.localUser();
        return console;
    }

    /**
     * A new store, like {@link #empty}, whose runtime connects an MCP server when a decision's calls need it, as
     * the console's own process does: a decision on a gateway's call checks the server's tool before it is handed
     * back.
     */
    static RealConsole connectingServers(Path folder) {
        RealConsole console = new RealConsole(folder, location -> CountersignRuntime.open(location,
                CountersignRuntime.Work.DECIDE, Duration.ofSeconds(30)));
        console.runtime.localUser();
        return console;
    }

    /** The store's first user, an admin who started none of the demo runs. */
    Actor admin() {
        return runtime.localUser();
    }

    /** A demo operator: maria started the release notes and the intake runs, jonas the web research. */
    Actor user(String name) {
        return runtime.store().users().find(name).orElseThrow();
    }

    /** Makes an agent require someone other than the initiator to approve. */
    void requireFourEyes(String agent) {
        StoredAgentConfiguration stored = runtime.store().configurations().findAgent(agent).orElseThrow();
        runtime.store().configurations().saveAgent(new StoredAgentConfiguration(stored.name(), stored.systemPrompt(),
                stored.modelName(), stored.toolGroups(), stored.allowedTools(), stored.workspace(),
                stored.toolCallPolicies(), stored.maxRounds(), true));
    }

    /**
     * Opens the console for a person on the stage, on the JavaFX thread. The store is made to know them with the
     * given roles first: the services check the roles the store gives a person, not the ones a test hands in.
     */
    ConsoleWindow open(FxRobot robot, Stage stage, Actor actor, Theme theme) {
        Actor setup = Actor.of("test-setup");
        var users = runtime.store().users();
        users.find(actor.name()).ifPresentOrElse(known -> users.setRoles(actor.name(), actor.roles(), setup),
                () -> users.add(actor.name(), actor.roles(), setup));
        robot.interact(() -> window = ConsoleWindow.open(stage, new ConsoleContext(services, actor,
                runtime.describeStore(), theme), executor, Clock.systemDefaultZone()));
        return window;
    }

    /** A second runtime over the same database file, as another process on the same desk would open it. */
    CountersignRuntime otherProcess() {
        CountersignRuntime other = CountersignRuntime.open(location);
        others.add(other);
        return other;
    }

    /** Closes a runtime of {@link #otherProcess()}, as that process exits. */
    void closeOther(CountersignRuntime other) {
        others.remove(other);
        other.close();
    }

    CountersignRuntime runtime() {
        return runtime;
    }

    Path folder() {
        return folder;
    }

    FxThreadGuard guard() {
        return guard;
    }

    /** The run service as the console sees it, behind the guard. */
    RunService service() {
        return services.runs();
    }

    /** Waits until a condition, evaluated on the JavaFX thread, holds. */
    static void await(Callable<Boolean> condition) {
        try {
            WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(condition).get());
        } catch (TimeoutException e) {
            // a picture of what the console showed instead, next to the other screenshots
            javafx.stage.Window.getWindows().stream().findFirst().ifPresent(window ->
                    ScreenshotWriter.write(window.getScene(), "failed-" + System.nanoTime()));
            throw new AssertionError("the console did not reach the expected state within 15 s", e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Reads something on the JavaFX thread. */
    static <T> T onFx(Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("reading the console's state failed", e);
        }
    }

    @Override
    public void close() {
        if (window != null) {
            WaitForAsyncUtils.asyncFx(window::close);
            WaitForAsyncUtils.waitForFxEvents();
        }
        executor.shutdownNow();
        others.forEach(CountersignRuntime::close);
        runtime.close();
    }
}
