package io.countersign.console.card;

import io.countersign.console.common.Messages;
import io.countersign.console.controls.Badge;
import io.countersign.console.controls.BannerView;
import io.countersign.service.RunCard;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The top of a card, approval or input: the banner, who and which run, how long it has waited and for what,
 * its deadline with Extend, and a link to the run's timeline.
 */
public final class CardHeader extends VBox {
    private final BannerView banner = new BannerView();
    private final Label title = new Label();
    private final Label waiting = new Label();
    private final Hyperlink timeline = new Hyperlink();
    private final Label loading = new Label();
    private final Badge refused = new Badge("", Badge.Kind.REFUSED);
    private final Label deadline = new Label();
    private final Button extend = new Button();
    private final HBox deadlineLine = new HBox(10);

    public CardHeader() {
        getStyleClass().add("card-top");
        title.getStyleClass().add("card-title");
        title.setWrapText(true);
        waiting.getStyleClass().add("card-subtitle");
        timeline.setGraphic(new FontIcon(Feather.CLOCK));
        timeline.getStyleClass().add("timeline-link");
        loading.getStyleClass().add("card-loading");
        refused.setVisible(false);
        refused.setManaged(false);
        deadline.getStyleClass().add("card-deadline");
        extend.getStyleClass().addAll("extend-deadline", "small");
        extend.setGraphic(new FontIcon(Feather.CLOCK));
        deadline.setMinWidth(Region.USE_PREF_SIZE);
        extend.setMinWidth(Region.USE_PREF_SIZE);
        HBox line = new HBox(12, waiting, refused, timeline);
        line.setAlignment(Pos.BASELINE_LEFT);
        // a line of its own: beside the waiting time it would be cut short in a narrow card
        deadlineLine.getChildren().setAll(deadline, extend);
        deadlineLine.setAlignment(Pos.CENTER_LEFT);
        VBox header = new VBox(2, title, line, deadlineLine);
        header.getStyleClass().add("card-header");
        getChildren().addAll(banner, header, loading);
    }

    /**
     * Shows a card session in the header.
     *
     * @param waitingFor   the bundle key of what the run waits for ("Waiting for approval")
     * @param openTimeline what the timeline link does with the run id
     */
    public void bind(CardSession session, Messages messages, String waitingFor, Consumer<String> openTimeline) {
        banner.bannerProperty().bind(session.bannerProperty());
        banner.setActionText(messages.get("card.reload"));
        // a card decided elsewhere or no longer waiting must not go on saying that it waits
        waiting.textProperty().bind(Bindings.when(session.finishedProperty())
                .then(messages.get("card.noLongerWaiting"))
                .otherwise(Bindings.createStringBinding(() -> {
                    // a card that could not be read has no waiting time to show before what it waits for
                    String waited = session.waitingTextProperty().get();
                    return (waited == null || waited.isEmpty() ? "" : waited + " · ") + messages.get(waitingFor);
                }, session.waitingTextProperty())));
        timeline.setText(messages.get("card.openTimeline"));
        timeline.setOnAction(event -> {
            RunCard card = session.cardProperty().get();
            if (card != null) {
                openTimeline.accept(card.runId());
            }
        });
        loading.setText(messages.get("card.loading"));
        loading.visibleProperty().bind(session.busyProperty().and(session.cardProperty().isNull()));
        loading.managedProperty().bind(loading.visibleProperty());
        // refused calls sit below the waiting ones and may be out of sight: say up front that there are some
        refused.textProperty().bind(Bindings.createStringBinding(() -> {
            RunCard card = session.cardProperty().get();
            return card == null ? "" : messages.get("card.refusedBelow", card.refused().size());
        }, session.cardProperty()));
        refused.visibleProperty().bind(Bindings.createBooleanBinding(() -> session.cardProperty().get() != null
                && !session.cardProperty().get().refused().isEmpty(), session.cardProperty()));
        refused.managedProperty().bind(refused.visibleProperty());
        bindDeadline(session, messages);
        title.textProperty().bind(Bindings.createStringBinding(() -> {
            RunCard card = session.cardProperty().get();
            return card == null ? "" : messages.get("card.title", card.agent(), messages.shortRunId(card.runId()),
                    card.initiator());
        }, session.cardProperty()));
    }

    /** The time left, coloured as it runs out, and Extend for those who decide cards. */
    private void bindDeadline(CardSession session, Messages messages) {
        CardDeadline due = session.deadline();
        deadline.textProperty().bind(due.textProperty());
        deadlineLine.visibleProperty().bind(due.deadlineProperty().isNotNull());
        deadlineLine.managedProperty().bind(deadlineLine.visibleProperty());
        due.urgencyProperty().addListener((o, was, now) -> showUrgency(now));
        showUrgency(due.urgencyProperty().get());
        extend.setText(messages.get("card.deadline.extend"));
        extend.setAccessibleText(messages.get("card.deadline.extend"));
        extend.setOnAction(event -> due.extend());
        extend.visibleProperty().bind(due.deadlineProperty().isNotNull().and(Bindings.createBooleanBinding(
                session::mayDecide)).and(session.finishedProperty().not()));
        extend.managedProperty().bind(extend.visibleProperty());
        extend.disableProperty().bind(due.canExtendProperty().not());
    }

    private void showUrgency(CardDeadline.Urgency urgency) {
        deadline.getStyleClass().removeAll("deadline-amber", "deadline-red");
        if (urgency == CardDeadline.Urgency.AMBER) {
            deadline.getStyleClass().add("deadline-amber");
        } else if (urgency == CardDeadline.Urgency.RED) {
            deadline.getStyleClass().add("deadline-red");
        }
    }

    /** What a click on the refused-calls badge does, such as scrolling to them. */
    public void setOnShowRefused(Runnable action) {
        refused.setOnMouseClicked(event -> action.run());
    }

    /** What the banner's Reload button does. */
    public void setOnReload(Runnable reload) {
        banner.setOnAction(event -> reload.run());
    }
}
