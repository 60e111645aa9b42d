package io.countersign.console;

import javafx.stage.Stage;
import org.testfx.api.FxRobot;

/** The window sizes the console must work at: as it opens, and the smallest supported. */
enum WindowSize {
    AS_OPENED(0, 0),
    SMALLEST(1024, 700);

    private final double width;
    private final double height;

    WindowSize(double width, double height) {
        this.width = width;
        this.height = height;
    }

    /** Gives the console's window this size. */
    void apply(FxRobot robot, Stage stage) {
        if (width > 0) {
            robot.interact(() -> {
                stage.setWidth(width);
                stage.setHeight(height);
            });
        }
    }
}
