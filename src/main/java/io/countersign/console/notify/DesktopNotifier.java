package io.countersign.console.notify;

import java.util.function.Consumer;

/**
 * The desktop's notification service: shows a notice and says when a person clicked one. Every method may block
 * (a D-Bus call, a process), so the console calls them off the JavaFX thread; the listener is called on whatever
 * thread the desktop answers on.
 */
public interface DesktopNotifier extends AutoCloseable {
    /**
     * Shows a notice; its default action (a click on it) reports its run to the listener.
     *
     * @throws NotifierException when the desktop refused it or cannot be reached
     */
    void show(ShownNotice notice);

    /** Takes back the notification of a run that no longer waits, if it still shows; no error when it does not. */
    void withdraw(String runId);

    /** Who is told the run of a notification a person clicked. */
    void onOpen(Consumer<String> listener);

    /** What the notices go through, for the log: "the freedesktop notification service over D-Bus". */
    String description();

    /** Lets go of the desktop: a connection, a tray icon. */
    @Override
    void close();

    /** The desktop refused a notification or cannot be reached; the message says which and why. */
    final class NotifierException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public NotifierException(String message, Throwable cause) {
            super(message, cause);
        }

        public NotifierException(String message) {
            super(message);
        }
    }
}
