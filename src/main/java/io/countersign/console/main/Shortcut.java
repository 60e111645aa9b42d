package io.countersign.console.main;

import java.util.Arrays;
import java.util.Optional;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;

/**
 * A keyboard shortcut of the window. Letters, digits, {@code ?} and Ctrl+A act only while the person is not
 * typing into a field; Enter, Esc and Ctrl+F act everywhere. The cheat sheet reads its keys from {@link Action}, so that it
 * lists exactly the keys this class answers to.
 *
 * @param position the call a digit toggles (1 to 9), 0 for every other action
 */
public record Shortcut(Action action, int position) {
    private static final String SHEET_CHARACTER = "?";

    /** What a shortcut does, in the order the cheat sheet lists them, each with the key that does it. */
    public enum Action {
        NEXT(KeyCode.J),
        PREVIOUS(KeyCode.K),
        TOGGLE(null),
        APPROVE_ALL(KeyCode.A),
        DENY_ALL(KeyCode.D),
        SELECT(KeyCode.X),
        SELECT_ALL(KeyCode.A),
        SUBMIT(KeyCode.ENTER),
        SEARCH(KeyCode.F),
        BACK(KeyCode.ESCAPE),
        KEYS(null);

        /** The key of the action; {@code null} for the digits of TOGGLE and the typed {@code ?} of KEYS. */
        private final KeyCode code;

        Action(KeyCode code) {
            this.code = code;
        }

        /** The key as the cheat sheet names it: "J", "1–9", "Ctrl+F", "?". */
        public String keyName() {
            return switch (this) {
                case TOGGLE -> "1–9";
                case KEYS -> SHEET_CHARACTER;
                case SEARCH, SELECT_ALL -> new KeyCodeCombination(code, KeyCombination.SHORTCUT_DOWN)
                        .getDisplayText();
                default -> code.getName();
            };
        }

        /** The key of the console's messages that says what the action does. */
        public String messageKey() {
            return "keys." + name();
        }
    }

    /**
     * The shortcut of a key press, if it is one.
     *
     * @param shortcutDown Ctrl (Cmd on a Mac) is held
     * @param typing       the focus is in a text field
     */
    public static Optional<Shortcut> of(KeyCode code, boolean shortcutDown, boolean typing) {
        if (shortcutDown) {
            if (code == Action.SELECT_ALL.code) {
                // in a text field Ctrl+A selects its text, as it always does
                return typing ? Optional.empty() : Optional.of(new Shortcut(Action.SELECT_ALL, 0));
            }
            return code == Action.SEARCH.code ? Optional.of(new Shortcut(Action.SEARCH, 0)) : Optional.empty();
        }
        if (code == Action.SUBMIT.code || code == Action.BACK.code) {
            return actionOf(code).map(action -> new Shortcut(action, 0));
        }
        if (typing) {
            return Optional.empty();
        }
        if (code.isDigitKey() && code != KeyCode.DIGIT0 && code != KeyCode.NUMPAD0) {
            return Optional.of(new Shortcut(Action.TOGGLE, digit(code)));
        }
        return code.isLetterKey() ? actionOf(code).map(action -> new Shortcut(action, 0)) : Optional.empty();
    }

    /**
     * The shortcut of a typed character, if it is one: {@code ?} opens the cheat sheet. It is read from the
     * character rather than the key, because where {@code ?} sits differs between keyboard layouts.
     */
    public static Optional<Shortcut> ofTyped(String character, boolean typing) {
        return !typing && SHEET_CHARACTER.equals(character) ? Optional.of(new Shortcut(Action.KEYS, 0))
                : Optional.empty();
    }

    private static Optional<Action> actionOf(KeyCode code) {
        return Arrays.stream(Action.values()).filter(action -> action.code == code && action != Action.SEARCH
                        && action != Action.SELECT_ALL)
                .findFirst();
    }

    private static int digit(KeyCode code) {
        String name = code.getName();
        return Character.getNumericValue(name.charAt(name.length() - 1));
    }
}
