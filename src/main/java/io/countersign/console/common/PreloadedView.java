package io.countersign.console.common;

import io.countersign.console.common.FxmlLoaderFactory.Loaded;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javafx.application.Platform;

/**
 * A view loaded off the JavaFX thread ahead of its first showing: its classes, its FXML, its nodes and its
 * controller. Nodes may be built on any thread until they join a scene that is showing; styling and layout stay
 * on the JavaFX thread (text is measured with state the toolkit shares), so they happen once the view joins the
 * window.
 *
 * @param <C> the view's controller
 */
public final class PreloadedView<C extends FxController> {
    private final FxmlLoaderFactory views;
    private final FxmlView view;
    private final CompletableFuture<Loaded<C>> loading;

    private PreloadedView(FxmlLoaderFactory views, FxmlView view, CompletableFuture<Loaded<C>> loading) {
        this.views = views;
        this.view = view;
        this.loading = loading;
    }

    /** Starts loading a view on a thread of its own. */
    public static <C extends FxController> PreloadedView<C> start(FxmlLoaderFactory views, FxmlView view) {
        CompletableFuture<Loaded<C>> loading = CompletableFuture.supplyAsync(() -> views.<C>load(view), task -> {
            Thread thread = new Thread(task, "countersign-preload-" + view.name().toLowerCase(Locale.ROOT));
            thread.setDaemon(true);
            thread.start();
        });
        return new PreloadedView<>(views, view, loading);
    }

    /** Runs {@code action} on the JavaFX thread once the load has ended, whether it succeeded or failed. */
    public void whenLoaded(Runnable action) {
        loading.whenComplete((loaded, failure) -> Platform.runLater(action));
    }

    /**
     * The view, once its load has finished; on the JavaFX thread. Should the load in the background have failed,
     * the view loads again here, so that its failure reaches the caller.
     */
    public Loaded<C> get() {
        try {
            return loading.join();
        } catch (CompletionException e) {
            return views.load(view);
        }
    }
}
