package io.countersign.console.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The freedesktop notifier of Linux: D-Bus first, notify-send only where the library cannot connect. */
class LinuxNotifierTest {
    private static final ShownNotice NOTICE = new ShownNotice("run-7", "Approval waiting: fs_write",
            "release-notes · started by maria", false);

    @TempDir
    Path folder;
    private final List<String> opened = new CopyOnWriteArrayList<>();

    @Test
    void aReachableBusIsUsedEvenWithNotifySendOnThePath() throws Exception {
        Path bin = notifySend("default");
        try (SessionBus bus = SessionBus.start(folder);
             NotificationRecorder server = NotificationRecorder.serve(bus.address(), List.of("actions"));
             LinuxNotifier notifier = new LinuxNotifier(bus.address(), bin.toString(), "Open card")) {
            notifier.show(NOTICE);

            assertThat(server.received()).extracting(NotificationRecorder.Received::summary)
                    .containsExactly("Approval waiting: fs_write");
            assertThat(notifier.description()).isEqualTo("the freedesktop notification service over D-Bus");
            assertThat(bin.resolve("calls")).doesNotExist();
        }
    }

    @Test
    void withoutABusNotifySendShowsTheNoticeAndItsPrintedActionOpensTheCard() throws Exception {
        Path bin = notifySend("default");
        try (LinuxNotifier notifier = new LinuxNotifier("unix:path=" + folder.resolve("no-bus"),
                "/nowhere:" + bin, "Open card")) {
            notifier.onOpen(opened::add);

            notifier.show(NOTICE);

            await().atMost(Duration.ofSeconds(10)).until(() -> !opened.isEmpty());
            assertThat(opened).containsExactly("run-7");
            assertThat(Files.readAllLines(bin.resolve("calls"))).containsExactly("--app-name=Countersign",
                    "--icon=io.countersign.Countersign", "--urgency=normal",
                    "--hint=string:desktop-entry:io.countersign.Countersign", "--action=default=Open card", "--wait",
                    "--", "Approval waiting: fs_write", "release-notes · started by maria");
        }
    }

    @Test
    void aNotificationClosedWithoutAClickOpensNothing() throws Exception {
        Path bin = notifySend("");
        try (LinuxNotifier notifier = new LinuxNotifier("unix:path=" + folder.resolve("no-bus"), bin.toString(),
                "Open card")) {
            notifier.onOpen(opened::add);

            notifier.show(NOTICE);

            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(bin.resolve("calls")));
            assertThat(opened).isEmpty();
        }
    }

    @Test
    void withNeitherTheNoticeIsRefusedNamingBoth() {
        try (LinuxNotifier notifier = new LinuxNotifier("unix:path=" + folder.resolve("no-bus"),
                folder.toString(), "Open card")) {
            assertThatThrownBy(() -> notifier.show(NOTICE))
                    .isInstanceOf(DesktopNotifier.NotifierException.class)
                    .hasMessageStartingWith("the session bus at unix:path=" + folder.resolve("no-bus")
                            + " cannot be reached: ")
                    .hasMessageEndingWith("; and no notify-send on the PATH to try instead");
        }
    }

    @Test
    void windowsAndMacOsUseTheSystemTrayAndEveryOtherSystemTheFreedesktopService() {
        assertThat(DesktopNotifiers.forSystem("Windows 11", java.util.Map.of(), "Open card"))
                .isInstanceOf(TrayNotifier.class);
        assertThat(DesktopNotifiers.forSystem("Mac OS X", java.util.Map.of(), "Open card"))
                .isInstanceOf(TrayNotifier.class);
        assertThat(DesktopNotifiers.forSystem("Linux", java.util.Map.of(), "Open card"))
                .isInstanceOf(LinuxNotifier.class);
        assertThat(DesktopNotifiers.forSystem("FreeBSD", java.util.Map.of(), "Open card"))
                .isInstanceOf(LinuxNotifier.class);
    }

    /** A notify-send that writes its arguments, one a line, and prints what a person's click would make it print. */
    private Path notifySend(String printed) throws Exception {
        Path bin = Files.createDirectories(folder.resolve("bin"));
        Path script = bin.resolve("notify-send");
        Files.writeString(script, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/calls.tmp\"\n"
                + "mv \"$(dirname \"$0\")/calls.tmp\" \"$(dirname \"$0\")/calls\"\n"
                + (printed.isEmpty() ? "" : "echo " + printed + "\n"));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }
}
