package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;
import atlantafx.base.controls.ToggleSwitch;
import io.countersign.app.ConsoleLauncher;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoreUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Labeled;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The application a launcher starts: its window shows before the store is open, the console follows when the
 * opening has its context, and the window says why when it cannot start.
 */
class ConsoleApplicationTest {
    private static final String WAITING_TITLE = "Countersign · 3 waiting";
    @TempDir
    Path folder;
    private CountersignRuntime runtime;
    private Application application;

    @BeforeEach
    void stage() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        if (application != null) {
            FxToolkit.cleanupApplication(application);
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    /** An opening over a demo store in the test's folder, which waits for {@code go} before it opens. */
    private final class DemoOpening implements ConsoleOpening {
        final CountDownLatch go = new CountDownLatch(1);
        final AtomicBoolean inboxShownFirst = new AtomicBoolean();
        final CountDownLatch afterInbox = new CountDownLatch(1);
        /** Who opens the console; the store's first user, an admin, when null. */
        Actor person;

        @Override
        public String store() {
            return "demo store in a test folder";
        }

        @Override
        public Path settingsFile() {
            return folder.resolve("console.properties");
        }

        @Override
        public ConsoleContext open() {
            try {
                go.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            runtime = CountersignRuntime.openDeferringRecovery(
                    new StoreLocation.SqliteFile(folder.resolve("countersign.db")));
            var actor = runtime.localUser();
            runtime.ensureDemo(folder);
            return ConsoleContext.of(ConsoleLauncher.servicesOf(runtime), person == null ? actor : person,
                    runtime.describeStore());
        }

        @Override
        public void afterInboxShown() {
            inboxShownFirst.set(shownStage().map(Stage::getTitle).filter(WAITING_TITLE::equals).isPresent());
            afterInbox.countDown();
        }
    }

    private static Optional<Stage> shownStage() {
        return Window.getWindows().stream().filter(Window::isShowing).filter(Stage.class::isInstance)
                .map(Stage.class::cast).findFirst();
    }

    private static Supplier<Optional<String>> textOf(String selector) {
        return () -> shownStage().map(Stage::getScene).map(Scene::getRoot).map(root -> root.lookup(selector))
                .map(node -> ((Labeled) node).getText());
    }

    @Test
    void theWindowShowsThatTheStoreIsOpeningUntilTheConsoleReplacesItWithTheInbox() throws Exception {
        DemoOpening opening = new DemoOpening();
        launch(opening);

        await(() -> textOf(".empty-title").get().filter("Opening the store…"::equals).isPresent());
        assertThat(textOf(".empty-text").get()).contains("demo store in a test folder");
        assertThat(shownStage().map(Stage::getTitle)).contains("Countersign");
        ScreenshotWriter.write(shownStage().orElseThrow().getScene(), "opening");

        opening.go.countDown();
        // the title carries the waiting count once the inbox has loaded
        await(() -> shownStage().map(Stage::getTitle).filter(WAITING_TITLE::equals).isPresent());
    }

    @Test
    void theThemeAPersonPicksIsTheOneTheNextStartOpensWith() throws Exception {
        DemoOpening opening = new DemoOpening();
        opening.go.countDown();
        launch(opening);
        await(() -> shownStage().map(Stage::getTitle).filter(WAITING_TITLE::equals).isPresent());
        assertThat(stylesheets()).anyMatch(sheet -> sheet.endsWith("/styles/light.css"));

        Button toggle = (Button) shownStage().orElseThrow().getScene().lookup("#themeToggle");
        WaitForAsyncUtils.asyncFx(toggle::fire).get();
        Path file = folder.resolve("console.properties");
        await(() -> Files.exists(file) && readUnchecked(file).contains("theme=DARK"));
        FxToolkit.cleanupApplication(application);
        runtime.close();

        DemoOpening next = new DemoOpening();
        launch(next);
        // the window that says the store is opening already has the picked theme, and the console keeps it
        await(() -> textOf(".empty-title").get().filter("Opening the store…"::equals).isPresent());
        assertThat(stylesheets()).anyMatch(sheet -> sheet.endsWith("/styles/dark.css"));
        next.go.countDown();
        await(() -> shownStage().map(Stage::getTitle).filter(WAITING_TITLE::equals).isPresent());
        assertThat(stylesheets()).anyMatch(sheet -> sheet.endsWith("/styles/dark.css"));
    }

    @Test
    void desktopNotificationsAPersonMutesStayMutedForThemAlone() throws Exception {
        DemoOpening opening = new DemoOpening();
        opening.person = new Actor("maria", Set.of(Role.OPERATOR));
        opening.go.countDown();
        launch(opening);
        await(() -> shownStage().map(Stage::getTitle).filter(WAITING_TITLE::equals).isPresent());
        assertThat(noticesSwitch().isSelected()).isTrue();

        WaitForAsyncUtils.asyncFx(() -> noticesSwitch().setSelected(false)).get();
        Path file = folder.resolve("console.properties");
        await(() -> Files.exists(file) && readUnchecked(file).contains("notifications.muted.maria=true"));
        FxToolkit.cleanupApplication(application);
        runtime.close();

        DemoOpening again = new DemoOpening();
        again.person = new Actor("maria", Set.of(Role.OPERATOR));
        again.go.countDown();
        launch(again);
        await(() -> shownStage().map(Stage::getTitle).filter(WAITING_TITLE::equals).isPresent());
        assertThat(noticesSwitch().isSelected()).isFalse();
        FxToolkit.cleanupApplication(application);
        runtime.close();

        DemoOpening jonas = new DemoOpening();
        jonas.person = new Actor("jonas", Set.of(Role.OPERATOR));
        jonas.go.countDown();
        launch(jonas);
        await(() -> shownStage().map(Stage::getTitle).filter(WAITING_TITLE::equals).isPresent());
        assertThat(noticesSwitch().isSelected()).isTrue();
    }

    private static ToggleSwitch noticesSwitch() {
        return (ToggleSwitch) shownStage().orElseThrow().getScene().lookup("#noticesSwitch");
    }

    /** Starts the console as its launcher does, with the given opening. */
    private void launch(ConsoleOpening opening) throws Exception {
        ConsoleApplication.prepare(opening);
        application = FxToolkit.setupApplication(ConsoleApplication.class);
    }

    private static List<String> stylesheets() {
        return shownStage().map(stage -> List.copyOf(stage.getScene().getStylesheets())).orElse(List.of());
    }

    private static String readUnchecked(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void workThatMustNotHoldTheInboxRunsAfterTheInboxHasShown() throws Exception {
        DemoOpening opening = new DemoOpening();
        opening.go.countDown();
        launch(opening);

        assertThat(opening.afterInbox.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(opening.inboxShownFirst).isTrue();
    }

    @Test
    void aConsoleWithNoInboxRunsThatWorkAsSoonAsItIsUp() throws Exception {
        DemoOpening opening = new DemoOpening();
        opening.person = new Actor("sam", Set.of(Role.SUPERVISOR));
        opening.go.countDown();
        launch(opening);

        assertThat(opening.afterInbox.await(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theWindowSaysWhyTheConsoleCannotStartAndOffersToClose() throws Exception {
        String problem = "The store /nowhere/countersign.db cannot be opened: the folder does not exist."
                + " Nothing was written.";
        launch(new ConsoleOpening() {
            @Override
            public String store() {
                return "/nowhere/countersign.db";
            }

            @Override
            public Path settingsFile() {
                return folder.resolve("console.properties");
            }

            @Override
            public ConsoleContext open() {
                throw new StoreUnavailableException(problem);
            }

            @Override
            public void afterInboxShown() {
                throw new AssertionError("a console that did not open has no inbox");
            }
        });

        await(() -> textOf(".empty-title").get().filter("The console cannot start."::equals).isPresent());
        assertThat(textOf(".empty-text").get()).contains(problem);
        ScreenshotWriter.write(shownStage().orElseThrow().getScene(), "opening-failed");
        Button close = (Button) shownStage().orElseThrow().getScene().getRoot().lookup(".button");
        FxToolkit.setupFixture(close::fire);
        await(() -> shownStage().isEmpty());
    }
}
