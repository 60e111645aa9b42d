package io.countersign.console.common;

/**
 * The controller of a full-width screen of the sidebar (the denial browser, tool settings, users). The main
 * window loads it the first time its section opens, and tells it each time it comes into view, so it can fetch
 * what changed while it was hidden.
 */
public interface ScreenController extends FxController {

    /** The screen came into view. */
    void shown();
}
