package io.countersign.console;

import io.countersign.console.common.Theme;
import java.time.Clock;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.prefs.Preferences;
import javafx.application.Application;
import javafx.stage.Stage;

/**
 * The JavaFX application of the console. A launcher that is no {@code Application} itself calls
 * {@link #launch(ConsoleContext)}: on the class path, a main class extending {@code Application} does not start.
 * The theme the person last chose (status bar) is a user setting and wins over the context's.
 */
public final class ConsoleApplication extends Application {
    private static final int WORKERS = 3;
    private static final String THEME_SETTING = "theme";
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
        Preferences settings = Preferences.userNodeForPackage(ConsoleApplication.class);
        Theme theme = savedTheme(settings, context.theme());
        window = ConsoleWindow.open(stage, context.withTheme(theme), executor, Clock.systemDefaultZone());
        // the theme a person picks stays picked for the next start
        window.viewModel().themeProperty().addListener((o, was, now) -> settings.put(THEME_SETTING, now.name()));
    }

    private static Theme savedTheme(Preferences settings, Theme fallback) {
        String saved = settings.get(THEME_SETTING, fallback.name());
        return Arrays.stream(Theme.values()).filter(theme -> theme.name().equals(saved)).findFirst()
                .orElse(fallback);
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
