package io.countersign.console.common;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * What a pane shows around its service calls: a problem (a failure to read or change, or the service's refusal),
 * a status (what the last change did) and whether a change is under way. Reads and changes run on the executor;
 * their handlers run on the JavaFX thread.
 */
public final class PaneState implements PaneFeedback {
    private final Executor executor;
    private final Messages messages;
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();

    public PaneState(Executor executor, Messages messages) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    /**
     * Reads in the background and hands what it found to {@code show}; a failure becomes the problem, worded by
     * {@code failedKey} with the arguments and then the failure's own words. Busy stays as it is.
     */
    public <T> void read(Callable<T> work, Consumer<? super T> show, String failedKey, Object... arguments) {
        Tasks.create(work).onSuccess(show).onError(failure -> fail(failure, failedKey, arguments)).runOnce(executor);
    }

    /**
     * Runs a change in the background: the pane is busy until it answers, and the last problem and status are
     * cleared as it starts. {@code done} or {@code failed} runs once busy is over.
     */
    public <T> void change(Callable<T> work, Consumer<? super T> done, Consumer<? super Throwable> failed) {
        change(busy::set, work, done, failed);
    }

    /** The same as {@link #change(Callable, Consumer, Consumer)}, marking something else busy, such as one row. */
    public <T> void change(Consumer<Boolean> marking, Callable<T> work, Consumer<? super T> done,
                           Consumer<? super Throwable> failed) {
        marking.accept(true);
        problem.set("");
        status.set("");
        Tasks.create(work)
                .onSuccess(result -> {
                    marking.accept(false);
                    done.accept(result);
                })
                .onError(failure -> {
                    marking.accept(false);
                    failed.accept(failure);
                })
                .runOnce(executor);
    }

    /** Shows the failure as the problem, worded by the key with the arguments and then the failure's own words. */
    public void fail(Throwable failure, String key, Object... arguments) {
        Object[] all = Arrays.copyOf(arguments, arguments.length + 1);
        all[arguments.length] = FailureText.of(failure);
        problem.set(messages.get(key, all));
    }

    /** A handler that {@linkplain #fail(Throwable, String, Object...) shows the failure} as the problem. */
    public Consumer<Throwable> failing(String key, Object... arguments) {
        return failure -> fail(failure, key, arguments);
    }

    /** Sets the problem; empty clears it. */
    public void problem(String text) {
        problem.set(text);
    }

    /** Sets the status; empty clears it. */
    public void status(String text) {
        status.set(text);
    }

    public boolean isBusy() {
        return busy.get();
    }

    @Override
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    @Override
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    @Override
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }
}
