package io.countersign.console.controls;

import io.countersign.console.common.Banner;
import java.util.Locale;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.event.ActionEvent;
import javafx.event.EventHandler;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * A banner across a screen: an icon and a sentence coloured by the banner's kind, and a Reload button when
 * reloading helps. Hidden (and taking no room) while there is no banner.
 */
public final class BannerView extends HBox {
    private final ObjectProperty<Banner> banner = new SimpleObjectProperty<>(this, "banner");
    private final FontIcon icon = new FontIcon();
    private final Label text = new Label();
    private final Button reload = new Button();

    public BannerView() {
        getStyleClass().add("banner");
        setAlignment(Pos.CENTER_LEFT);
        setSpacing(10);
        text.setWrapText(true);
        text.setMaxWidth(Double.MAX_VALUE);
        text.getStyleClass().add("banner-text");
        HBox.setHgrow(text, Priority.ALWAYS);
        icon.getStyleClass().add("banner-icon");
        reload.setGraphic(new FontIcon(Feather.REFRESH_CW));
        reload.getStyleClass().add("banner-action");
        getChildren().addAll(icon, text, reload);
        banner.addListener((o, was, now) -> show(now));
        show(null);
    }

    private void show(Banner shown) {
        getStyleClass().removeAll("banner-info", "banner-warning", "banner-danger");
        setVisible(shown != null);
        setManaged(shown != null);
        if (shown == null) {
            return;
        }
        getStyleClass().add("banner-" + shown.kind().name().toLowerCase(Locale.ROOT));
        icon.setIconCode(switch (shown.kind()) {
            case INFO -> Feather.INFO;
            case WARNING -> Feather.ALERT_TRIANGLE;
            case DANGER -> Feather.ALERT_OCTAGON;
        });
        text.setText(shown.text());
        reload.setVisible(shown.reloadable());
        reload.setManaged(shown.reloadable());
    }

    public ObjectProperty<Banner> bannerProperty() {
        return banner;
    }

    /** The text of the Reload button. */
    public void setActionText(String actionText) {
        reload.setText(actionText);
    }

    /** What Reload does. */
    public void setOnAction(EventHandler<ActionEvent> handler) {
        reload.setOnAction(handler);
    }
}
