package io.countersign.console.main;

import io.countersign.service.RunService;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import javafx.animation.PauseTransition;

/**
 * How the window sends approvals and denials: through the service on the executor, each after an undo time.
 *
 * @param undoTime how long a decision is held for Undo before it is sent
 */
public record DecisionSending(RunService service, Executor executor, Delays delays, Duration undoTime) {
    /** Runs an action after a delay on the JavaFX thread; the handle returned cancels it. */
    public interface Delays {
        Runnable after(Duration delay, Runnable action);

        /** The JavaFX animation timer's delays. */
        static Delays fx() {
            return (delay, action) -> {
                PauseTransition pause = new PauseTransition(javafx.util.Duration.millis(delay.toMillis()));
                pause.setOnFinished(event -> action.run());
                pause.play();
                return pause::stop;
            };
        }
    }

    public DecisionSending {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(delays, "delays");
        if (undoTime == null || undoTime.isNegative()) {
            throw new IllegalArgumentException("the undo time must be zero or more, got " + undoTime);
        }
    }
}
