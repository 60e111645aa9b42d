package io.countersign.console;

import io.countersign.console.common.Theme;
import io.countersign.engine.Actor;
import java.util.Objects;

/**
 * What the console needs from whoever starts it: the service layer, the person acting, a description of the
 * store for the status bar, and the theme to start with.
 *
 * @param store such as {@code ~/.local/share/countersign/countersign.db}; shown, never opened
 */
public record ConsoleContext(ConsoleServices services, Actor actor, String store, Theme theme) {
    public ConsoleContext {
        Objects.requireNonNull(services, "services");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(theme, "theme");
        if (store == null || store.isBlank()) {
            throw new IllegalArgumentException("the console needs a description of its store for the status bar");
        }
    }

    /** A context with the light theme. */
    public static ConsoleContext of(ConsoleServices services, Actor actor, String store) {
        return new ConsoleContext(services, actor, store, Theme.LIGHT);
    }

    /** The same context in another theme. */
    public ConsoleContext withTheme(Theme other) {
        return new ConsoleContext(services, actor, store, other);
    }
}
