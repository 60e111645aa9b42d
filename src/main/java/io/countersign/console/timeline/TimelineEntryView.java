package io.countersign.console.timeline;

import io.countersign.service.RunTimeline;
import java.util.Locale;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** One entry of a timeline: time and kind on the left, title and body on the right; tool traffic in monospace. */
final class TimelineEntryView extends HBox {

    TimelineEntryView(RunTimeline.Entry entry, String time, String kind) {
        String kindStyle = "entry-" + entry.kind().name().toLowerCase(Locale.ROOT).replace('_', '-');
        getStyleClass().addAll("timeline-entry", kindStyle);
        setSpacing(14);
        setAlignment(Pos.TOP_LEFT);

        Label tag = new Label(kind);
        tag.getStyleClass().add("entry-kind");
        Label clock = new Label(time);
        clock.getStyleClass().addAll("entry-time", "mono");
        VBox left = new VBox(2, tag, clock);
        left.getStyleClass().add("entry-left");
        left.setMinWidth(Region.USE_PREF_SIZE);
        left.setPrefWidth(96);

        VBox right = new VBox(4);
        HBox.setHgrow(right, Priority.ALWAYS);
        // a title that only repeats the kind ("Model") says nothing twice
        if (entry.title() != null && !entry.title().isBlank() && !entry.title().equalsIgnoreCase(kind)) {
            Label title = new Label(entry.title());
            title.getStyleClass().add("entry-title");
            if (entry.kind() == RunTimeline.Kind.TOOL_CALL || entry.kind() == RunTimeline.Kind.TOOL_RESULT) {
                title.getStyleClass().add("mono");
            }
            title.setWrapText(true);
            right.getChildren().add(title);
        }
        if (entry.body() != null && !entry.body().isBlank()) {
            Label body = new Label(entry.body());
            body.getStyleClass().add("entry-body");
            if (entry.kind() == RunTimeline.Kind.TOOL_CALL || entry.kind() == RunTimeline.Kind.TOOL_RESULT) {
                body.getStyleClass().add("mono");
            }
            body.setWrapText(true);
            right.getChildren().add(body);
        }
        getChildren().addAll(left, right);
    }
}
