package io.countersign.console;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * A robot test of the console over a real store in the test's folder. The test makes its {@link RealConsole} and
 * opens it on the extension's stage ({@link #openDemo} does both for the demo and the store's admin); after each
 * test this checks that no service call ran on the JavaFX thread, then closes the window, the store and the
 * servers the test started beside them.
 */
@ExtendWith(ApplicationExtension.class)
abstract class ConsoleRobotTest {
    @TempDir
    Path folder;
    Stage stage;
    RealConsole console;
    ConsoleWindow window;
    private final List<AutoCloseable> besideTheConsole = new ArrayList<>();

    /** The extension's own stage for the test (it calls no @Start method of a superclass). */
    @BeforeEach
    void registeredStage() {
        stage = FxToolkit.toolkitContext().getRegisteredStage();
    }

    @AfterEach
    void close() throws Exception {
        if (console != null) {
            checkNoServiceCallOnTheFxThread();
            console.close();
        }
        for (int i = besideTheConsole.size() - 1; i >= 0; i--) {
            besideTheConsole.get(i).close();
        }
    }

    /**
     * A server the test runs beside the console, closed after the console, which may still reach it until then;
     * the last one started is closed first.
     */
    <T extends AutoCloseable> T closedAfterTheConsole(T resource) {
        besideTheConsole.add(resource);
        return resource;
    }

    /** The check after each test; a test that calls the service on the JavaFX thread on purpose skips it. */
    void checkNoServiceCallOnTheFxThread() {
        assertThat(console.guard().callsOnFxThread()).as("service calls on the JavaFX thread").isEmpty();
    }

    /** Opens the console over the demo, light, at the size. */
    ConsoleWindow openDemo(FxRobot robot, WindowSize size) {
        console = RealConsole.withDemo(folder);
        window = console.open(robot, stage, console.admin(), Theme.LIGHT);
        size.apply(robot, stage);
        return window;
    }

    /** Holds a service call until the test lets it go (or 10 s have passed). */
    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
