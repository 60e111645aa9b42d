package io.countersign.console.main;

import java.util.Optional;
import javafx.scene.input.KeyCode;

/**
 * A keyboard shortcut of the window. Letters and digits act only while the person is not typing into a field;
 * Enter, Esc and Ctrl+F act everywhere.
 *
 * @param position the call a digit toggles (1 to 9), 0 for every other action
 */
public record Shortcut(Action action, int position) {

    /** What a shortcut does. */
    public enum Action {
        NEXT,
        PREVIOUS,
        APPROVE_ALL,
        DENY_ALL,
        TOGGLE,
        SUBMIT,
        SEARCH,
        BACK
    }

    /**
     * The shortcut of a key press, if it is one.
     *
     * @param shortcutDown Ctrl (Cmd on a Mac) is held
     * @param typing       the focus is in a text field
     */
    public static Optional<Shortcut> of(KeyCode code, boolean shortcutDown, boolean typing) {
        if (shortcutDown) {
            return code == KeyCode.F ? Optional.of(new Shortcut(Action.SEARCH, 0)) : Optional.empty();
        }
        if (code == KeyCode.ENTER) {
            return Optional.of(new Shortcut(Action.SUBMIT, 0));
        }
        if (code == KeyCode.ESCAPE) {
            return Optional.of(new Shortcut(Action.BACK, 0));
        }
        if (typing) {
            return Optional.empty();
        }
        if (code.isDigitKey() && code != KeyCode.DIGIT0 && code != KeyCode.NUMPAD0) {
            return Optional.of(new Shortcut(Action.TOGGLE, digit(code)));
        }
        return switch (code) {
            case J -> Optional.of(new Shortcut(Action.NEXT, 0));
            case K -> Optional.of(new Shortcut(Action.PREVIOUS, 0));
            case A -> Optional.of(new Shortcut(Action.APPROVE_ALL, 0));
            case D -> Optional.of(new Shortcut(Action.DENY_ALL, 0));
            default -> Optional.empty();
        };
    }

    private static int digit(KeyCode code) {
        String name = code.getName();
        return Character.getNumericValue(name.charAt(name.length() - 1));
    }
}
