package io.countersign.console;

import io.countersign.console.common.FxController;
import io.countersign.console.common.FxmlLoaderFactory;
import io.countersign.console.common.FxmlView;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.console.notify.DesktopNotifiers;
import io.countersign.console.opening.OpeningPane;
import io.countersign.console.signin.SignInController;
import io.countersign.console.signin.SignInRequired;
import io.countersign.console.signin.SignInViewModel;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.beans.InvalidationListener;
import javafx.beans.Observable;
import javafx.beans.value.ObservableBooleanValue;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * The JavaFX application of the console. A launcher that is no {@code Application} itself calls
 * {@link #launch(ConsoleOpening)}: on the class path, a main class extending {@code Application} does not start.
 * The window shows at once, saying that the store is opening; the console replaces that state when the opening
 * has its context, or the window says why it cannot start, or asks the person to sign in to a team store whose
 * server wants a password. The theme the person last chose (status bar) is a
 * user setting and wins over the context's.
 */
public final class ConsoleApplication extends Application {
    private static final int WORKERS = 3;
    private static final Duration CLOSING_TIME = Duration.ofSeconds(20);
    private static final Logger LOG = Logger.getLogger(ConsoleApplication.class.getName());
    private static volatile ConsoleOpening pending;
    private static volatile ConsoleSettings settings;
    private static volatile CompletableFuture<ConsoleContext> context;

    private ExecutorService executor;
    private ConsoleWindow window;

    /**
     * Starts the opening and, beside it, the JavaFX runtime; opens the console as the opening allows and returns
     * when the window closes.
     */
    public static void launch(ConsoleOpening opening) {
        prepare(opening);
        Application.launch(ConsoleApplication.class);
    }

    /**
     * Starts the opening on a background thread (the store opens while the JavaFX runtime starts) and gives the
     * next instance its opening; the JavaFX runtime creates the instance itself.
     */
    static void prepare(ConsoleOpening opening) {
        pending = Objects.requireNonNull(opening, "opening");
        settings = ConsoleSettings.read(opening.settingsFile());
        CompletableFuture<ConsoleContext> opened = new CompletableFuture<>();
        context = opened;
        background("console-opening", () -> {
            try {
                opened.complete(opening.open());
            } catch (RuntimeException | Error e) {
                // whatever stops the opening, the window says so instead of opening forever
                opened.completeExceptionally(e);
            }
        });
    }

    @Override
    public void start(Stage stage) {
        ConsoleOpening opening = pending;
        if (opening == null) {
            throw new IllegalStateException("start the console with ConsoleApplication.launch(ConsoleOpening)");
        }
        AtomicInteger count = new AtomicInteger();
        executor = Executors.newFixedThreadPool(WORKERS, work -> {
            Thread thread = new Thread(work, "console-worker-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        Theme theme = settings.theme(Theme.LIGHT);
        Messages messages = Messages.forLocale(Locale.getDefault());

        theme.applyToApplication();
        OpeningPane openingPane = new OpeningPane(messages, opening.store());
        Scene scene = new Scene(openingPane, ConsoleWindow.WIDTH, ConsoleWindow.HEIGHT);
        theme.apply(scene);
        // a stage shown before (tests reuse theirs) may still carry an earlier console's title binding
        stage.titleProperty().unbind();
        stage.setTitle(messages.get("opening.window"));
        stage.setScene(scene);
        stage.show();

        context.whenComplete((opened, failure) -> Platform.runLater(() -> {
            if (failure == null) {
                showConsole(stage, opened, opening);
            } else if (failure instanceof SignInRequired required) {
                showSignIn(stage, required, opening, messages);
            } else {
                openingPane.fail(problem(failure), stage::close);
            }
        }));
    }

    /** The store's server wants a password: the window asks for it, and Cancel quits. */
    private void showSignIn(Stage stage, SignInRequired required, ConsoleOpening opening, Messages messages) {
        ConsoleSettings kept = settings;
        SignInViewModel signIn = new SignInViewModel(required, opening::signIn, executor, messages, signedIn -> {
            executor.execute(() -> kept.keepLogin(new ConsoleSettings.RememberedLogin(signedIn.url(),
                    signedIn.user())));
            showConsole(stage, signedIn.context(), opening);
        });
        Map<Class<? extends FxController>, Supplier<? extends FxController>> controllers =
                Map.of(SignInController.class, () -> new SignInController(signIn, stage::close));
        Parent view = new FxmlLoaderFactory(controllers, messages.bundle()).load(FxmlView.SIGN_IN).root();
        stage.setTitle(messages.get("signIn.window"));
        stage.getScene().setRoot(view);
    }

    private void showConsole(Stage stage, ConsoleContext context, ConsoleOpening opening) {
        if (!stage.isShowing()) {
            // closed while the store opened: the launcher closes the store
            return;
        }
        ConsoleWindow shown = ConsoleWindow.open(stage, context.withTheme(settings.theme(context.theme())),
                executor, Clock.systemDefaultZone(), settings.placement());
        window = shown;
        // the theme a person picks stays picked for the next start
        ConsoleSettings kept = settings;
        shown.viewModel().themeProperty().addListener((o, was, now) -> executor.execute(() -> kept.keepTheme(now)));
        notifyOnTheDesktop(shown, context.actor().name(), kept);
        Runnable afterInbox = () -> background("console-after-inbox", opening::afterInboxShown);
        if (shown.viewModel().sections().contains(Section.INBOX)) {
            whenTrue(shown.viewModel().inbox().loadedProperty(), afterInbox);
        } else {
            // a supervisor's console has no inbox to wait for
            afterInbox.run();
        }
    }

    /** Desktop notices through the system's service, muted as this person last chose; the choice is kept. */
    private void notifyOnTheDesktop(ConsoleWindow shown, String person, ConsoleSettings kept) {
        shown.notices().mutedProperty().set(kept.noticesMuted(person));
        shown.notices().mutedProperty().addListener((o, was, now) ->
                executor.execute(() -> kept.keepNoticesMuted(person, now)));
        shown.notifyThrough(DesktopNotifiers.forSystem(System.getProperty("os.name"), System.getenv(),
                Messages.forLocale(Locale.getDefault()).get("notice.open")));
    }

    private static void whenTrue(ObservableBooleanValue condition, Runnable action) {
        if (condition.get()) {
            action.run();
            return;
        }
        condition.addListener(new InvalidationListener() {
            @Override
            public void invalidated(Observable observable) {
                if (condition.get()) {
                    condition.removeListener(this);
                    action.run();
                }
            }
        });
    }

    private static String problem(Throwable e) {
        return e.getMessage() == null || e.getMessage().isBlank() ? e.toString() : e.getMessage();
    }

    private static void background(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop() {
        if (window != null) {
            ConsoleSettings kept = settings;
            WindowPlacement placement = window.placement();
            window.close();
            executor.execute(() -> kept.keepPlacement(placement));
        }
        if (executor != null) {
            executor.shutdown();
            awaitQueuedWork();
        }
    }

    /**
     * Lets the work queued at closing (the window's place, decisions whose undo time had not run out) finish
     * before the launcher closes the store; the window is gone by then, so nobody waits on a frozen screen.
     */
    private void awaitQueuedWork() {
        try {
            if (!executor.awaitTermination(CLOSING_TIME.toSeconds(), TimeUnit.SECONDS)) {
                LOG.warning(() -> "work queued at closing did not finish within " + CLOSING_TIME.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
