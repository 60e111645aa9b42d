package io.countersign.console.card;

import io.countersign.console.common.Messages;
import io.countersign.service.RunCard;
import java.util.Objects;
import java.util.function.Consumer;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.VBox;

/**
 * What the approval card and the input card share around their own content: the header with its Timeline link
 * and Reload, the scrolling body that starts at the run's context, and the decision bar, shown while there is a
 * card.
 */
public final class CardFrame {
    private Consumer<String> openTimeline = runId -> {
    };

    /** The card views' shared nodes, as their FXML names them. */
    public record Parts(CardHeader header, ScrollPane scroll, CardContext context, VBox decisionBar) {
    }

    /**
     * Wires the shared nodes to a session.
     *
     * @param waitingKey the text key of what the card waits for, such as {@code card.waitingForInput}
     * @param reload     what Reload does
     * @param shown      what the card kind shows of each new card, after the context
     */
    public void wire(Parts parts, CardSession session, Messages messages, String waitingKey, Runnable reload,
                     Consumer<RunCard> shown) {
        Objects.requireNonNull(shown, "shown");
        parts.header().bind(session, messages, waitingKey, runId -> openTimeline.accept(runId));
        parts.header().setOnReload(reload);
        Consumer<RunCard> show = card -> {
            parts.scroll().setVisible(card != null);
            if (card != null) {
                parts.context().show(card, messages);
                shown.accept(card);
                parts.scroll().setVvalue(0);
            }
        };
        session.cardProperty().addListener((o, was, now) -> show.accept(now));
        parts.decisionBar().visibleProperty().bind(session.cardProperty().isNotNull());
        parts.decisionBar().managedProperty().bind(parts.decisionBar().visibleProperty());
        show.accept(session.cardProperty().get());
    }

    /** What the Timeline link does. */
    public void setOnOpenTimeline(Consumer<String> action) {
        this.openTimeline = Objects.requireNonNull(action, "action");
    }
}
