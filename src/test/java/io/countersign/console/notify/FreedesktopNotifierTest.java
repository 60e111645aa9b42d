package io.countersign.console.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The D-Bus notifier against a real session bus and a recording notification server on it. */
class FreedesktopNotifierTest {
    private static final ShownNotice WAITING = new ShownNotice("run-7", "Approval waiting: fs_write, fs_delete",
            "release-notes · started by maria", false);

    @TempDir
    Path folder;
    private SessionBus bus;
    private NotificationRecorder server;
    private FreedesktopNotifier notifier;
    private final List<String> opened = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        bus = SessionBus.start(folder);
        server = NotificationRecorder.serve(bus.address(), List.of("actions", "body", "body-markup"));
        notifier = FreedesktopNotifier.connect(bus.address(), "Open card");
        notifier.onOpen(opened::add);
    }

    @AfterEach
    void stop() {
        notifier.close();
        server.close();
        bus.close();
    }

    @Test
    void aNoticeReachesTheServerWithItsSummaryBodyDefaultActionAndHints() {
        notifier.show(WAITING);

        assertThat(server.received()).singleElement().satisfies(received -> {
            assertThat(received.appName()).isEqualTo("Countersign");
            assertThat(received.appIcon()).isEqualTo("io.countersign.Countersign");
            assertThat(received.replacesId()).isZero();
            assertThat(received.summary()).isEqualTo("Approval waiting: fs_write, fs_delete");
            assertThat(received.body()).isEqualTo("release-notes · started by maria");
            assertThat(received.actions()).containsExactly("default", "Open card");
            assertThat(received.hints()).isEqualTo(Map.of("urgency", (byte) 1,
                    "desktop-entry", "io.countersign.Countersign", "category", "im.received"));
            assertThat(received.expireTimeout()).isEqualTo(-1);
        });
    }

    @Test
    void anUrgentNoticeIsCriticalAndASecondNoticeOfTheSameCardReplacesTheFirst() {
        notifier.show(WAITING);
        long first = server.received().get(0).id();

        notifier.show(new ShownNotice("run-7", "45s left: fs_write", "release-notes · 45s left", true));

        assertThat(server.received().get(1).replacesId()).isEqualTo(first);
        assertThat(server.received().get(1).hints()).containsEntry("urgency", (byte) 2);
    }

    @Test
    void namesThatLookLikeMarkupStayTextOnAServerThatReadsMarkup() {
        notifier.show(new ShownNotice("run-8", "Approval waiting: a<b>", "R&D <agent> · started by maria", false));

        assertThat(server.received().get(0).body()).isEqualTo("R&amp;D &lt;agent&gt; · started by maria");
    }

    @Test
    void clickingTheNotificationReportsItsRun() throws Exception {
        notifier.show(WAITING);
        notifier.show(new ShownNotice("run-9", "Input waiting: intake_form", "intake · started by jonas", false));

        server.click(server.received().get(1).id());

        await().atMost(Duration.ofSeconds(5)).until(() -> !opened.isEmpty());
        assertThat(opened).containsExactly("run-9");
    }

    @Test
    void aDismissedNotificationIsForgottenAndItsRunsNextNoticeIsANewOne() throws Exception {
        notifier.show(WAITING);
        long id = server.received().get(0).id();

        server.dismiss(id);
        server.click(id);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            notifier.show(WAITING);
            assertThat(server.received().get(server.received().size() - 1).replacesId()).isZero();
        });

        assertThat(opened).isEmpty();
    }

    @Test
    void aCardThatNoLongerWaitsTakesItsNotificationBack() {
        notifier.show(WAITING);

        notifier.withdraw("run-7");
        notifier.withdraw("run-unknown");

        assertThat(server.closed()).containsExactly(server.received().get(0).id());
    }

    @Test
    void aBusWithoutANotificationServiceIsRefusedWithTheReason() {
        server.close();

        assertThatThrownBy(() -> FreedesktopNotifier.connect(bus.address(), "Open card"))
                .isInstanceOf(DesktopNotifier.NotifierException.class)
                .hasMessageStartingWith("no notification service answers on the session bus "
                        + "(org.freedesktop.Notifications): ");
    }

    @Test
    void aBusThatCannotBeReachedIsRefusedWithItsAddress() {
        String nowhere = "unix:path=" + folder.resolve("no-bus");

        assertThatThrownBy(() -> FreedesktopNotifier.connect(nowhere, "Open card"))
                .isInstanceOf(DesktopNotifier.NotifierException.class)
                .hasMessageStartingWith("the session bus at " + nowhere + " cannot be reached: ");
    }
}
