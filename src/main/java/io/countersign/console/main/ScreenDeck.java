package io.countersign.console.main;

import io.countersign.console.common.FxController;
import io.countersign.console.common.FxmlLoaderFactory.Loaded;
import io.countersign.console.common.FxmlLoaderFactory;
import io.countersign.console.common.FxmlView;
import io.countersign.console.common.PreloadedView;
import io.countersign.console.common.ScreenController;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import javafx.scene.Node;
import javafx.scene.layout.StackPane;

/**
 * The window's content: the split of list and detail (for the inbox and the Runs list) and the full-width screens
 * of the other sections, each screen loaded once (when first opened, or ahead of it) and kept in the window,
 * hidden, while another section shows, so that coming back to one does not style it anew.
 */
final class ScreenDeck {
    private final FxmlLoaderFactory views;
    private final StackPane content;
    private final Node split;
    private final Map<Section, Loaded<? extends FxController>> screens = new EnumMap<>(Section.class);
    private final Map<Section, PreloadedView<? extends FxController>> preloaded = new EnumMap<>(Section.class);

    /** @param split what the sections without a screen of their own show: the list beside the detail */
    ScreenDeck(FxmlLoaderFactory views, StackPane content, Node split) {
        this.views = Objects.requireNonNull(views, "views");
        this.content = Objects.requireNonNull(content, "content");
        this.split = Objects.requireNonNull(split, "split");
    }

    /** Brings a section into view, hiding the others, and tells a screen that it is shown. */
    void show(Section section) {
        Node shown = section.screen().<Node>map(view -> screen(section, view).root()).orElse(split);
        // the shown one goes first among the others (a move, not a removal), where a search of the window by id
        // meets it first
        if (!content.getChildren().contains(shown)) {
            content.getChildren().add(shown);
        }
        shown.toBack();
        content.getChildren().forEach(child -> child.setVisible(child == shown));
        if (section.screen().isPresent()) {
            ((ScreenController) screens.get(section).controller()).shown();
        }
    }

    /** Whether the section's screen has joined the window (shown, or prepared hidden). */
    boolean hasJoined(Section section) {
        return screens.containsKey(section);
    }

    /** Starts loading a section's screen on a thread of its own; {@code then} runs on the JavaFX thread after. */
    void preload(Section section, Runnable then) {
        PreloadedView<? extends FxController> ahead = PreloadedView.start(views, section.screen().orElseThrow());
        preloaded.put(section, ahead);
        ahead.whenLoaded(then);
    }

    /** Adds a section's screen to the window, hidden, and lets it read what it will show. */
    void addHidden(Section section) {
        Loaded<? extends FxController> screen = screen(section, section.screen().orElseThrow());
        screen.root().setVisible(false);
        content.getChildren().add(screen.root());
        ((ScreenController) screen.controller()).preparedHidden();
    }

    private Loaded<? extends FxController> screen(Section section, FxmlView view) {
        return screens.computeIfAbsent(section, missing -> {
            PreloadedView<? extends FxController> ahead = preloaded.remove(section);
            return ahead == null ? views.load(view) : ahead.get();
        });
    }
}
