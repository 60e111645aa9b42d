package io.countersign.console.main;

import io.countersign.engine.Actor;
import io.countersign.service.UserService;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import javafx.application.Platform;

/**
 * Follows the roles of the person at the console: when users or roles change (here, or in another process on the
 * same store), reads theirs on the executor and hands them to the JavaFX thread if they differ from the last.
 */
public final class RoleWatch {
    private static final Logger LOG = Logger.getLogger(RoleWatch.class.getName());

    private final UserService users;
    private final Executor executor;
    private volatile Actor last;
    private AutoCloseable subscription;

    public RoleWatch(UserService users, Actor person, Executor executor) {
        this.users = Objects.requireNonNull(users, "users");
        this.last = Objects.requireNonNull(person, "person");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** Starts listening; {@code changed} is called on the JavaFX thread with the person's new roles. */
    void start(Consumer<Actor> changed) {
        subscription = users.onChange(() -> executor.execute(() -> {
            try {
                Actor now = users.current(last);
                if (!now.roles().equals(last.roles())) {
                    last = now;
                    Platform.runLater(() -> changed.accept(now));
                }
            } catch (RuntimeException e) {
                // A store that cannot be read just now: the next change reads again, and every service checks anyway.
                LOG.log(Level.FINE, "could not read the roles of " + last.name(), e);
            }
        }));
    }

    void stop() {
        if (subscription != null) {
            try {
                subscription.close();
            } catch (Exception e) {
                LOG.log(Level.FINE, "could not stop following the roles", e);
            }
        }
    }
}
