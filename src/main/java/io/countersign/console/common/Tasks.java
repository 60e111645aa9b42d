package io.countersign.console.common;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.application.Platform;

/**
 * Runs work off the JavaFX thread and hands its result back on it:
 * {@code Tasks.create(() -> service.inbox(actor)).onSuccess(this::show).onError(this::fail).runOnce(executor)}.
 * The executor is injected, so nothing in the console picks its own threads.
 */
public final class Tasks {
    private Tasks() {
    }

    /** Starts describing a piece of background work. */
    public static <T> Builder<T> create(Callable<T> work) {
        return new Builder<>(Objects.requireNonNull(work, "work"));
    }

    /** A piece of background work with what to do, on the JavaFX thread, with its result or its failure. */
    public static final class Builder<T> {
        private final Callable<T> work;
        private Consumer<? super T> onSuccess = result -> {
        };
        private Consumer<? super Throwable> onError = Builder::report;

        private Builder(Callable<T> work) {
            this.work = work;
        }

        /** What to do with the result, on the JavaFX thread. */
        public Builder<T> onSuccess(Consumer<? super T> handler) {
            this.onSuccess = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** What to do with a failure, on the JavaFX thread; without one, the failure is logged. */
        public Builder<T> onError(Consumer<? super Throwable> handler) {
            this.onError = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** Runs the work once on the executor. */
        public void runOnce(Executor executor) {
            executor.execute(() -> {
                try {
                    T result = work.call();
                    Platform.runLater(() -> onSuccess.accept(result));
                } catch (Exception | LinkageError e) {
                    Platform.runLater(() -> onError.accept(e));
                }
            });
        }

        private static void report(Throwable failure) {
            System.getLogger(Tasks.class.getName()).log(System.Logger.Level.WARNING,
                    "background work failed", failure);
        }
    }
}
