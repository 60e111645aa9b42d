package io.countersign.console.main;

import io.countersign.console.inbox.InboxSelection;
import java.util.Objects;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBoxBase;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextInputControl;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;

/**
 * The window's keyboard: turns key presses into the view model's actions ({@link Shortcut}), ahead of the
 * focused control, and moves the focus where an action leaves the person.
 */
final class KeyboardShortcuts {
    private final MainWindowViewModel viewModel;
    private final Node detailPane;
    private final FocusMoves focus;
    private final InboxSelection selection;
    /** A press was taken as a shortcut: the character it types must not reach the field the focus moved to. */
    private boolean swallowTyped;

    /**
     * Where the focus goes after an action.
     *
     * @param list   to the list beside the detail (the inbox or the Runs list)
     * @param reason to the reason field of the approval card, after Approve all and Deny all
     * @param search to the inbox's search
     * @param sheet  to the cheat sheet of every key, which it opens
     */
    record FocusMoves(Runnable list, Runnable reason, Runnable search, Runnable sheet) {
        FocusMoves {
            Objects.requireNonNull(list, "list");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(search, "search");
            Objects.requireNonNull(sheet, "sheet");
        }
    }

    /**
     * @param detailPane the pane of the card or timeline, where Enter submits even in a text field
     * @param selection  the inbox's cards picked for a batch, which X and Ctrl+A change
     */
    KeyboardShortcuts(MainWindowViewModel viewModel, Node detailPane, FocusMoves focus, InboxSelection selection) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.selection = Objects.requireNonNull(selection, "selection");
        this.detailPane = Objects.requireNonNull(detailPane, "detailPane");
        this.focus = Objects.requireNonNull(focus, "focus");
    }

    /** Listens to the scene's keys; as a filter, so that no focused control swallows Enter or Esc. */
    void install(Scene scene) {
        scene.addEventFilter(KeyEvent.KEY_PRESSED, event -> {
            swallowTyped = false;
            onKey(event, scene.getFocusOwner());
            swallowTyped = event.isConsumed();
        });
        scene.addEventFilter(KeyEvent.KEY_TYPED, event -> {
            if (swallowTyped) {
                swallowTyped = false;
                event.consume();
                return;
            }
            Shortcut.ofTyped(event.getCharacter(), typing(scene.getFocusOwner())).ifPresent(shortcut -> {
                act(shortcut);
                event.consume();
            });
        });
        scene.addEventFilter(KeyEvent.KEY_RELEASED, event -> swallowTyped = false);
    }

    private void onKey(KeyEvent event, Node focused) {
        if (viewModel.sectionProperty().get().screen().isPresent()) {
            // the shortcuts act on the inbox and its cards, which a full-width screen hides
            return;
        }
        if (popupShowing(focused)
                || event.getCode() == KeyCode.ENTER && focused instanceof TextInputControl
                && !inside(focused, detailPane)) {
            // a list to pick from, or the search box: their own Enter and Esc come first
            return;
        }
        Shortcut.of(event.getCode(), event.isShortcutDown(), typing(focused)).ifPresent(shortcut -> {
            act(shortcut);
            event.consume();
        });
    }

    private void act(Shortcut shortcut) {
        switch (shortcut.action()) {
            case NEXT -> viewModel.next();
            case PREVIOUS -> viewModel.previous();
            case APPROVE_ALL -> {
                viewModel.cards().approveAll();
                focusReasonOnACard();
            }
            case DENY_ALL -> {
                viewModel.cards().denyAll();
                focusReasonOnACard();
            }
            case TOGGLE -> viewModel.cards().toggle(shortcut.position());
            case SELECT -> selection.toggle(viewModel.inbox().selectedProperty().get());
            case SELECT_ALL -> selection.selectAll();
            case SUBMIT -> viewModel.cards().submit();
            case SEARCH -> {
                if (viewModel.sections().contains(Section.INBOX)) {
                    viewModel.sectionProperty().set(Section.INBOX);
                    focus.search().run();
                }
            }
            case KEYS -> focus.sheet().run();
            case BACK -> {
                if (viewModel.detailProperty().get() instanceof Detail.Timeline) {
                    viewModel.back();
                } else {
                    viewModel.inbox().searchProperty().set("");
                    focus.list().run();
                }
            }
        }
    }

    /** Both A and D leave the person in the reason field, where Enter submits and a reason can be typed. */
    private void focusReasonOnACard() {
        if (viewModel.detailProperty().get() instanceof Detail.ApprovalCard) {
            focus.reason().run();
        }
    }

    private static boolean inside(Node node, Node ancestor) {
        for (Node at = node; at != null; at = at.getParent()) {
            if (at == ancestor) {
                return true;
            }
        }
        return false;
    }

    private static boolean popupShowing(Node focused) {
        return focused instanceof ComboBoxBase<?> box && box.isShowing()
                || focused instanceof ChoiceBox<?> choice && choice.isShowing();
    }

    private static boolean typing(Node focused) {
        return focused instanceof TextInputControl
                || focused instanceof ComboBoxBase<?> box && box.isEditable()
                || focused instanceof Spinner<?> spinner && spinner.isEditable();
    }
}
