package io.countersign.console.input;

import io.countersign.console.common.Messages;
import javafx.collections.ListChangeListener;
import javafx.scene.layout.VBox;

/** The servers' questions that wait, as cards above the inbox's list; it takes no room when none waits. */
public final class AskedQuestionsView extends VBox {
    public AskedQuestionsView() {
        getStyleClass().add("asked-questions");
        setSpacing(8);
        managedProperty().bind(visibleProperty());
        setVisible(false);
    }

    /** Shows the view model's questions from now on; a card keeps its controls while its question waits. */
    public void show(AskedQuestionsViewModel viewModel, Messages messages) {
        Runnable build = () -> {
            getChildren().setAll(viewModel.waiting().stream()
                    .map(item -> getChildren().stream()
                            .filter(card -> card.getUserData() == item).findFirst()
                            .orElseGet(() -> {
                                AskedQuestionCard card = new AskedQuestionCard(item, messages);
                                card.setUserData(item);
                                return card;
                            }))
                    .toList());
            setVisible(!viewModel.waiting().isEmpty());
        };
        viewModel.waiting().addListener((ListChangeListener<AskedQuestionItem>) change -> build.run());
        build.run();
    }
}
