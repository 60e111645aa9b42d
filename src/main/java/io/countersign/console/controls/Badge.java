package io.countersign.console.controls;

import java.util.Locale;
import javafx.scene.control.Label;

/** A small rounded tag beside a tool name: what kind of call it is, coloured only where that means something. */
public final class Badge extends Label {

    /** The kinds of badge, each with its own style class ({@code badge-write}, ...). */
    public enum Kind {
        WRITE,
        REMOTE,
        DATA,
        REFUSED,
        INPUT,
        STALE,
        /** A remote server nobody declared: its tools run without approval, which is easy to miss. */
        UNDECLARED,
        NEUTRAL
    }

    public Badge(String text, Kind kind) {
        super(text);
        getStyleClass().addAll("badge", "badge-" + kind.name().toLowerCase(Locale.ROOT));
        setMinWidth(USE_PREF_SIZE);
    }
}
