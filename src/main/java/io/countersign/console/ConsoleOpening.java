package io.countersign.console;

import java.nio.file.Path;

/**
 * How the console gets its context when the window is already on screen: the store is opened off the JavaFX
 * thread while the window shows that it is opening, and work that must not hold the inbox runs once the inbox
 * has shown.
 */
public interface ConsoleOpening {

    /** The store as the window names it while it opens, such as {@code ~/.local/share/countersign/countersign.db}. */
    String store();

    /** The file that keeps this person's console settings on this machine (see {@link ConsoleSettings}). */
    Path settingsFile();

    /**
     * Opens the store and the services; called once, on a background thread.
     *
     * @throws RuntimeException with a message for the person at the desk when the console cannot open; the
     *                          window shows it
     */
    ConsoleContext open();

    /**
     * Opens the store as the login the person signed in as, after {@link #open()} threw
     * {@link io.countersign.console.signin.SignInRequired}; on a background thread. The password goes to the
     * database driver only; the caller wipes the array afterwards.
     *
     * @throws io.countersign.console.signin.SignInRequired when the server refuses the login again
     * @throws RuntimeException                              with a message for the person for another failure
     */
    default ConsoleContext signIn(String url, String user, char[] password) {
        throw new UnsupportedOperationException("this opening never asks anyone to sign in");
    }

    /**
     * Work that waits until the inbox has shown once (at once for a person with no inbox), such as resuming
     * interrupted runs; on a background thread.
     */
    void afterInboxShown();
}
