package io.countersign.console.card;

import io.countersign.console.common.Messages;
import io.countersign.service.RunCard;
import javafx.scene.control.Label;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;

/** Why the run exists: what the person asked, and what the model said last. */
public final class CardContext extends GridPane {
    private final Label askedLabel = new Label();
    private final Label modelLabel = new Label();
    private final Label prompt = new Label();
    private final Label model = new Label();

    public CardContext() {
        getStyleClass().add("card-context");
        setHgap(12);
        setVgap(6);
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(60);
        ColumnConstraints texts = new ColumnConstraints();
        texts.setHgrow(Priority.ALWAYS);
        getColumnConstraints().addAll(labels, texts);
        askedLabel.getStyleClass().add("context-label");
        modelLabel.getStyleClass().add("context-label");
        prompt.getStyleClass().add("context-prompt");
        prompt.setWrapText(true);
        model.getStyleClass().add("context-model");
        model.setWrapText(true);
        addRow(0, askedLabel, prompt);
        addRow(1, modelLabel, model);
    }

    /** Shows the context of a card. */
    public void show(RunCard card, Messages messages) {
        askedLabel.setText(messages.get("card.asked"));
        modelLabel.setText(messages.get("card.model"));
        prompt.setText(card.prompt() == null ? "" : card.prompt());
        boolean said = card.lastModelMessage() != null && !card.lastModelMessage().isBlank();
        model.setText(said ? card.lastModelMessage() : messages.get("card.modelSilent"));
    }
}
