package io.countersign.console.common;

import java.util.Objects;
import java.util.function.Function;
import javafx.application.Platform;

/**
 * Keeps a view model's data current while it follows the service's changes: each change the service reports runs
 * {@code reload} on the FX thread.
 */
public final class ChangeFollower {
    private final Function<Runnable, AutoCloseable> subscribe;
    private final Runnable reload;
    private AutoCloseable subscription;

    /** {@code subscribe} is the service's {@code onChange}; {@code reload} asks it for the data again. */
    public ChangeFollower(Function<Runnable, AutoCloseable> subscribe, Runnable reload) {
        this.subscribe = Objects.requireNonNull(subscribe, "subscribe");
        this.reload = Objects.requireNonNull(reload, "reload");
    }

    /** Follows the changes while {@code following}; asked to follow, it reloads at once too. */
    public void follow(boolean following) {
        if (following) {
            if (subscription == null) {
                subscription = subscribe.apply(() -> Platform.runLater(reload));
            }
            reload.run();
        } else if (subscription != null) {
            try {
                subscription.close();
            } catch (Exception e) {
                System.getLogger(ChangeFollower.class.getName()).log(System.Logger.Level.DEBUG,
                        "closing the change subscription failed", e);
            }
            subscription = null;
        }
    }
}
