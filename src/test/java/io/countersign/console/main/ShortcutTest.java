package io.countersign.console.main;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.main.Shortcut.Action;
import java.util.Optional;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;

class ShortcutTest {

    @Test
    void lettersDriveTheInboxAndTheCard() {
        assertThat(Shortcut.of(KeyCode.J, false, false)).contains(new Shortcut(Action.NEXT, 0));
        assertThat(Shortcut.of(KeyCode.K, false, false)).contains(new Shortcut(Action.PREVIOUS, 0));
        assertThat(Shortcut.of(KeyCode.A, false, false)).contains(new Shortcut(Action.APPROVE_ALL, 0));
        assertThat(Shortcut.of(KeyCode.D, false, false)).contains(new Shortcut(Action.DENY_ALL, 0));
    }

    @Test
    void aDigitTogglesTheCallAtItsPosition() {
        assertThat(Shortcut.of(KeyCode.DIGIT3, false, false)).contains(new Shortcut(Action.TOGGLE, 3));
        assertThat(Shortcut.of(KeyCode.NUMPAD9, false, false)).contains(new Shortcut(Action.TOGGLE, 9));
        assertThat(Shortcut.of(KeyCode.DIGIT0, false, false)).isEmpty();
    }

    @Test
    void lettersAndDigitsTypeIntoAFieldInsteadOfActing() {
        assertThat(Shortcut.of(KeyCode.J, false, true)).isEmpty();
        assertThat(Shortcut.of(KeyCode.DIGIT1, false, true)).isEmpty();
    }

    @Test
    void enterEscapeAndSearchWorkEverywhere() {
        assertThat(Shortcut.of(KeyCode.ENTER, false, true)).contains(new Shortcut(Action.SUBMIT, 0));
        assertThat(Shortcut.of(KeyCode.ESCAPE, false, true)).contains(new Shortcut(Action.BACK, 0));
        assertThat(Shortcut.of(KeyCode.F, true, true)).contains(new Shortcut(Action.SEARCH, 0));
    }

    @Test
    void xAndCtrlAPickCardsButNotWhileTyping() {
        assertThat(Shortcut.of(KeyCode.X, false, false)).contains(new Shortcut(Action.SELECT, 0));
        assertThat(Shortcut.of(KeyCode.A, true, false)).contains(new Shortcut(Action.SELECT_ALL, 0));
        assertThat(Shortcut.of(KeyCode.A, false, false)).contains(new Shortcut(Action.APPROVE_ALL, 0));
        assertThat(Shortcut.of(KeyCode.X, false, true)).isEmpty();
        assertThat(Shortcut.of(KeyCode.A, true, true)).isEmpty();
    }

    @Test
    void otherKeysAreNoShortcut() {
        assertThat(Shortcut.of(KeyCode.Q, false, false)).isEqualTo(Optional.empty());
        assertThat(Shortcut.of(KeyCode.J, true, false)).isEmpty();
    }
}
