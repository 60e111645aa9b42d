package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import com.sun.javafx.stage.WindowHelper;
import io.countersign.console.main.Section;
import io.countersign.engine.Actor;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreUnavailableException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/** Runs that start waiting elsewhere reach the open console by themselves. */
class LiveInboxTest extends ConsoleRobotTest {
    @BeforeEach
    void open(FxRobot robot) {
        openDemo(robot, WindowSize.AS_OPENED);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
    }

    @Test
    void aRunAnotherProcessStartsAppearsWithoutARefreshWithinASecondOrSo(FxRobot robot) {
        CountersignRuntime other = console.otherProcess();
        Actor jonas = other.store().users().find("jonas").orElseThrow();

        long started = System.nanoTime();
        other.runs().start(jonas, "web-research", "Compare the changelog again", false);
        long startReturned = System.nanoTime();
        await(() -> window.viewModel().inbox().allRuns().size() == 4);
        Duration seen = Duration.ofNanos(System.nanoTime() - startReturned);

        assertThat(onFx(() -> stage.getTitle())).isEqualTo("Countersign · 4 waiting");
        assertThat(onFx(() -> robot.lookup(".nav-count").queryAs(Label.class).getText())).isEqualTo("4");
        // the store's change feed polls another process's changes once a second; allow for a busy machine
        assertThat(seen).as("from the other process's commit to the inbox line (start took %s ms)",
                Duration.ofNanos(startReturned - started).toMillis()).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void anUnreachableStoreShowsABannerAndTheConsoleRetriesUntilItIsBack(FxRobot robot) {
        AtomicBoolean down = new AtomicBoolean(true);
        console.guard().beforeEachCall(method -> {
            if (down.get()) {
                throw new StoreUnavailableException("the database file is locked by another program");
            }
        });
        CountersignRuntime other = console.otherProcess();
        other.runs().start(other.store().users().find("jonas").orElseThrow(), "web-research",
                "Compare the changelog again", false);

        await(() -> robot.lookup(".store-banner .banner-text").queryAs(Label.class).getText().equals(
                "The store cannot be reached (the database file is locked by another program). Nothing is lost;"
                        + " the console retries every few seconds."));
        assertThat(window.viewModel().statusProperty().get()).contains("not connected");
        ScreenshotWriter.write(window.scene(), "store-unreachable-light");
        down.set(false);

        await(() -> !robot.lookup(".store-banner").query().isVisible()
                && window.viewModel().inbox().allRuns().size() == 4);
        assertThat(window.viewModel().statusProperty().get()).contains("connected").doesNotContain("not connected");
    }

    @Test
    void anInboxThatMissedARunCatchesUpWhenAnotherScreenFindsTheStoreBackFirst(FxRobot robot) {
        AtomicBoolean down = new AtomicBoolean(true);
        console.guard().beforeEachCall(method -> {
            if (down.get() && method.equals("inbox")) {
                throw new StoreUnavailableException("the database file is locked by another program");
            }
        });
        CountersignRuntime other = console.otherProcess();
        other.runs().start(other.store().users().find("jonas").orElseThrow(), "web-research",
                "Compare the changelog again", false);
        await(() -> !window.viewModel().connection().isConnected());

        down.set(false);
        // the denial browser's first page gets through and clears the banner before the inbox has reloaded
        ToolSettingsTest.openSection(robot, Section.DENIALS);
        await(() -> window.viewModel().connection().isConnected());

        await(() -> window.viewModel().inbox().allRuns().size() == 4);
    }

    @Test
    void aNewRunIsAnnouncedWhileTheWindowIsNotFocused(FxRobot robot) {
        // the headless platform moves no focus between windows: tell the window, as the desktop would, that
        // the person went to another application
        robot.interact(() -> WindowHelper.setFocused(stage, false));
        CountersignRuntime other = console.otherProcess();

        other.runs().start(other.store().users().find("jonas").orElseThrow(), "web-research",
                "Compare the changelog again", false);

        await(() -> robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(toast -> toast.getText().equals("New in the inbox: web-research web_fetch")));
    }
}
