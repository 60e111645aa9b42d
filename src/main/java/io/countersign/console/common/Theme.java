package io.countersign.console.common;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import java.net.URL;
import java.util.function.Supplier;
import javafx.application.Application;
import javafx.scene.Scene;

/**
 * The console's looks: an AtlantaFX Primer base, a stylesheet naming the colours that carry meaning, and the
 * console's own stylesheet, which refers only to those names.
 */
public enum Theme {
    LIGHT(() -> new PrimerLight().getUserAgentStylesheet(), "/styles/light.css"),
    DARK(() -> new PrimerDark().getUserAgentStylesheet(), "/styles/dark.css");

    private static final String APP_STYLESHEET = "/styles/app.css";

    private final Supplier<String> base;
    private final String colours;

    Theme(Supplier<String> base, String colours) {
        this.base = base;
        this.colours = colours;
    }

    /** The other theme, for a toggle. */
    public Theme other() {
        return this == LIGHT ? DARK : LIGHT;
    }

    /**
     * Makes this theme's base the application's stylesheet, before the first control is built: the first control
     * built while none is set makes JavaFX parse its own default stylesheet (about as large), only for the theme to
     * replace it.
     */
    public void applyToApplication() {
        Application.setUserAgentStylesheet(base.get());
    }

    /** Makes this theme the application's and the scene's. */
    public void apply(Scene scene) {
        applyToApplication();
        scene.getStylesheets().setAll(stylesheet(colours), stylesheet(APP_STYLESHEET));
    }

    private static String stylesheet(String resource) {
        URL url = Theme.class.getResource(resource);
        if (url == null) {
            throw new IllegalStateException("the stylesheet " + resource
                    + " is not on the class path; is the styles directory a resource directory of the build?");
        }
        return url.toExternalForm();
    }
}
