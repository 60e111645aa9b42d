package io.countersign.console.main;

import io.countersign.console.common.Messages;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.value.ObservableDoubleValue;
import javafx.collections.ListChangeListener;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The sidebar: one entry per section (the inbox's with the waiting count) and New run. Below
 * {@link #NARROW_BELOW} pixels of window it shows only the icons, each with its name as a tooltip, so that the
 * panes keep the width a card needs.
 */
final class Sidebar {
    static final double NARROW_BELOW = 1200;
    private static final double WIDE = 200;
    private static final double NARROW = 72;
    private static final PseudoClass NARROW_STATE = PseudoClass.getPseudoClass("narrow");

    private final MainWindowViewModel viewModel;
    private final Messages messages;
    private final BooleanBinding narrow;
    private final Map<Section, ToggleButton> buttons = new EnumMap<>(Section.class);
    private final List<Node> words = new ArrayList<>();

    /**
     * @param words       what the narrow sidebar leaves out: the brand's name, the person's name and roles
     * @param windowWidth the width the sidebar narrows by
     */
    Sidebar(VBox sidebar, VBox navItems, Button newRun, List<Node> words, ObservableDoubleValue windowWidth,
            MainWindowViewModel viewModel, Messages messages) {
        this.viewModel = viewModel;
        this.messages = messages;
        this.narrow = Bindings.createBooleanBinding(() -> windowWidth.get() > 0 && windowWidth.get() < NARROW_BELOW,
                windowWidth);
        this.words.addAll(words);
        ToggleGroup group = new ToggleGroup();
        group.selectedToggleProperty().addListener((o, was, now) -> {
            if (now == null && was.getToggleGroup() == group) {
                was.setSelected(true);
            } else if (now != null) {
                viewModel.sectionProperty().set((Section) now.getUserData());
            }
        });
        fill(navItems, group);
        // roles changed while the console is open: the entries follow, the shown section stays marked
        viewModel.sections().addListener((ListChangeListener<Section>) change -> {
            fill(navItems, group);
            select(viewModel.sectionProperty().get());
        });
        newRun.setTooltip(new Tooltip(newRun.getText()));
        newRun.contentDisplayProperty().bind(Bindings.when(narrow).then(ContentDisplay.GRAPHIC_ONLY)
                .otherwise(ContentDisplay.LEFT));
        this.words.forEach(word -> {
            word.visibleProperty().bind(narrow.not());
            word.managedProperty().bind(narrow.not());
        });
        sidebar.prefWidthProperty().bind(Bindings.when(narrow).then(NARROW).otherwise(WIDE));
        sidebar.minWidthProperty().bind(sidebar.prefWidthProperty());
        narrow.addListener((o, was, now) -> sidebar.pseudoClassStateChanged(NARROW_STATE, now));
        sidebar.pseudoClassStateChanged(NARROW_STATE, narrow.get());
    }

    private void fill(VBox navItems, ToggleGroup group) {
        buttons.values().forEach(button -> button.setToggleGroup(null));
        buttons.clear();
        navItems.getChildren().setAll(viewModel.sections().stream().map(section -> (Node) entry(section, group))
                .toList());
    }

    /** Marks the section's entry as the one shown. */
    void select(Section section) {
        Optional.ofNullable(buttons.get(section)).ifPresent(button -> button.setSelected(true));
    }

    /** A sidebar entry; the inbox's carries the waiting count. */
    private ToggleButton entry(Section section, ToggleGroup group) {
        String name = messages.get(section.labelKey());
        Label label = new Label(name);
        label.visibleProperty().bind(narrow.not());
        label.managedProperty().bind(narrow.not());
        HBox graphic = new HBox(10, new FontIcon(section.icon()), label);
        graphic.spacingProperty().bind(Bindings.when(narrow).then(4).otherwise(10));
        graphic.setAlignment(Pos.CENTER_LEFT);
        if (section == Section.INBOX) {
            Label count = new Label();
            count.getStyleClass().add("nav-count");
            count.textProperty().bind(Bindings.size(viewModel.inbox().allRuns()).asString());
            count.visibleProperty().bind(Bindings.isNotEmpty(viewModel.inbox().allRuns()));
            Region gap = new Region();
            HBox.setHgrow(gap, Priority.ALWAYS);
            graphic.getChildren().addAll(gap, count);
        }
        ToggleButton button = new ToggleButton();
        button.setGraphic(graphic);
        button.setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        button.setAccessibleText(name);
        button.setTooltip(new Tooltip(name));
        button.getStyleClass().add("nav-item");
        button.setMaxWidth(Double.MAX_VALUE);
        button.setUserData(section);
        button.setToggleGroup(group);
        buttons.put(section, button);
        return button;
    }
}
