package io.countersign.console.notify;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Linux and the other freedesktop systems: the notification service over D-Bus, connected at the first notice
 * (a console that never notifies opens no connection); {@code notify-send} only where the D-Bus library cannot
 * connect. A notice that finds neither says why both failed, and the next notice tries again: a notification
 * daemon may start later in the session.
 */
final class LinuxNotifier implements DesktopNotifier {
    private static final Logger LOG = Logger.getLogger(LinuxNotifier.class.getName());

    private final String busAddress;
    private final String searchPath;
    private final String openLabel;
    private volatile Consumer<String> listener = runId -> {
    };
    private DesktopNotifier connected;

    /**
     * @param busAddress {@code DBUS_SESSION_BUS_ADDRESS}, or {@code null} to let the library find the session bus
     * @param searchPath {@code PATH}, where {@code notify-send} is looked for
     */
    LinuxNotifier(String busAddress, String searchPath, String openLabel) {
        this.busAddress = busAddress == null || busAddress.isBlank() ? null : busAddress;
        this.searchPath = searchPath;
        this.openLabel = Objects.requireNonNull(openLabel, "openLabel");
    }

    @Override
    public synchronized void show(ShownNotice notice) {
        connected().show(notice);
    }

    private DesktopNotifier connected() {
        if (connected != null) {
            return connected;
        }
        DesktopNotifier found;
        try {
            found = FreedesktopNotifier.connect(busAddress, openLabel);
        } catch (NotifierException overDBus) {
            Optional<NotifySendNotifier> fallback = NotifySendNotifier.onPath(searchPath, openLabel);
            if (fallback.isEmpty()) {
                throw new NotifierException(overDBus.getMessage() + "; and no notify-send on the PATH to try instead",
                        overDBus);
            }
            found = fallback.get();
            LOG.info(() -> "desktop notices go through " + fallback.get().description() + ": "
                    + overDBus.getMessage());
        }
        found.onOpen(runId -> listener.accept(runId));
        connected = found;
        return found;
    }

    @Override
    public synchronized void withdraw(String runId) {
        if (connected != null) {
            connected.withdraw(runId);
        }
    }

    @Override
    public void onOpen(Consumer<String> opened) {
        this.listener = Objects.requireNonNull(opened, "opened");
    }

    @Override
    public synchronized String description() {
        return connected != null ? connected.description() : "the freedesktop notification service, not yet connected";
    }

    @Override
    public synchronized void close() {
        if (connected != null) {
            connected.close();
            connected = null;
        }
    }
}
