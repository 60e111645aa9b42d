package io.countersign.console.common;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/** The state a pane shows around a service call, as its labels and buttons would show it. */
@ExtendWith(ApplicationExtension.class)
class PaneStateTest {
    /** Holds the background work until the test lets it run, so that "while it runs" can be looked at. */
    private final List<Runnable> held = new ArrayList<>();
    private final PaneState pane = new PaneState(held::add, Messages.forLocale(Locale.ENGLISH));

    private void runHeldWork() {
        held.forEach(Runnable::run);
        held.clear();
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static <T> T onFx(Callable<T> read) throws InterruptedException, ExecutionException, TimeoutException {
        return WaitForAsyncUtils.asyncFx(read).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aChangeIsBusyUntilItAnswersAndClearsWhatTheLastOneSaid() throws Exception {
        List<String> done = new ArrayList<>();
        onFx(() -> {
            pane.problem("Grant g1 could not be revoked: the store is closed");
            pane.status("Saved 1 change.");
            pane.change(() -> "g2", done::add, failure -> done.add("failed"));
            return null;
        });

        assertThat(onFx(() -> List.of(pane.isBusy(), pane.problemProperty().get(), pane.statusProperty().get())))
                .containsExactly(true, "", "");
        runHeldWork();

        assertThat(onFx(pane::isBusy)).isFalse();
        assertThat(done).containsExactly("g2");
    }

    @Test
    void aFailedChangeIsWordedWithTheFailuresOwnWords() throws Exception {
        onFx(() -> {
            pane.change(() -> {
                throw new IllegalStateException("the store is closed");
            }, result -> { }, pane.failing("grants.revokeFailed", "g1"));
            return null;
        });
        runHeldWork();

        assertThat(onFx(() -> pane.problemProperty().get()))
                .isEqualTo("Grant g1 could not be revoked: the store is closed");
        assertThat(onFx(pane::isBusy)).isFalse();
    }

    @Test
    void aFailureWithoutAMessageIsNamedByItsKind() throws Exception {
        onFx(() -> {
            pane.read(() -> {
                throw new NullPointerException();
            }, result -> { }, "webhooks.loadFailed");
            return null;
        });
        runHeldWork();

        assertThat(onFx(() -> pane.problemProperty().get()))
                .isEqualTo("The webhooks could not be loaded: NullPointerException");
    }

    @Test
    void aReadLeavesBusyAndTheStatusAlone() throws Exception {
        List<String> shown = new ArrayList<>();
        onFx(() -> {
            pane.status("Webhook 1 was removed.");
            pane.read(() -> "two hooks", shown::add, "webhooks.loadFailed");
            return null;
        });
        runHeldWork();

        assertThat(shown).containsExactly("two hooks");
        assertThat(onFx(() -> List.of(pane.isBusy(), pane.statusProperty().get())))
                .containsExactly(false, "Webhook 1 was removed.");
    }

    @Test
    void aRowsChangeMarksTheRowAndNotThePane() throws Exception {
        List<Boolean> rowBusy = new ArrayList<>();
        onFx(() -> {
            pane.change(rowBusy::add, () -> "kim", result -> { }, failure -> { });
            return null;
        });
        boolean paneBusyMeanwhile = onFx(pane::isBusy);
        runHeldWork();

        assertThat(paneBusyMeanwhile).isFalse();
        assertThat(rowBusy).containsExactly(true, false);
    }
}
