package io.countersign.console.common;

/**
 * The controller of a full-width screen of the sidebar (the denial browser, tool settings, users). The main
 * window loads it the first time its section opens (or ahead of it), keeps it in the window, hidden, while another
 * section shows, and tells it each time it comes into view, so it can fetch what changed while it was hidden.
 */
public interface ScreenController extends FxController {

    /** The screen came into view. */
    void shown();

    /**
     * The screen joined the window hidden, ahead of its first showing; a screen that is slow to fill the first time
     * may read what it will show now, so that the window styles and lays it out before anyone opens it. By default
     * nothing: the screen reads when it is shown.
     */
    default void preparedHidden() {
    }
}
