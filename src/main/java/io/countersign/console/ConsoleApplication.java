package io.countersign.console;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.application.Application;
import javafx.stage.Stage;

/**
 * The JavaFX application of the console. A launcher that is no {@code Application} itself calls
 * {@link #launch(ConsoleContext)}: on the class path, a main class extending {@code Application} does not start.
 */
public final class ConsoleApplication extends Application {
    private static final int WORKERS = 3;
    private static volatile ConsoleContext pending;

    private ExecutorService executor;
    private ConsoleWindow window;

    /** Starts the JavaFX runtime and opens the console for the context; returns when the window closes. */
    public static void launch(ConsoleContext context) {
        prepare(context);
        Application.launch(ConsoleApplication.class);
    }

    /** Gives the next instance its context; the JavaFX runtime creates the instance itself. */
    static void prepare(ConsoleContext context) {
        pending = Objects.requireNonNull(context, "context");
    }

    @Override
    public void start(Stage stage) {
        ConsoleContext context = pending;
        if (context == null) {
            throw new IllegalStateException("start the console with ConsoleApplication.launch(ConsoleContext)");
        }
        AtomicInteger count = new AtomicInteger();
        executor = Executors.newFixedThreadPool(WORKERS, work -> {
            Thread thread = new Thread(work, "console-worker-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        window = ConsoleWindow.open(stage, context, executor, Clock.systemDefaultZone());
    }

    @Override
    public void stop() {
        if (window != null) {
            window.close();
        }
        if (executor != null) {
            executor.shutdown();
        }
    }
}
