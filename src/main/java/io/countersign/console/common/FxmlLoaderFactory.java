package io.countersign.console.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Map;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;

/**
 * Loads FXML views with the console's texts and with controllers built by the console (constructor injection),
 * also for views included with {@code fx:include}.
 */
public final class FxmlLoaderFactory {
    private final Map<Class<? extends FxController>, Supplier<? extends FxController>> controllers;
    private final ResourceBundle bundle;

    /**
     * @param controllers how to build each controller class an FXML file names in {@code fx:controller}
     * @param bundle      the texts the views refer to as {@code %key}
     */
    public FxmlLoaderFactory(Map<Class<? extends FxController>, Supplier<? extends FxController>> controllers,
                             ResourceBundle bundle) {
        this.controllers = Map.copyOf(controllers);
        this.bundle = bundle;
    }

    /** Loads a view and returns its root with its controller. */
    public <C extends FxController> Loaded<C> load(FxmlView view) {
        URL location = FxmlLoaderFactory.class.getResource(view.resource());
        if (location == null) {
            throw new IllegalStateException("the view " + view.resource()
                    + " is not on the class path; is the fxml directory a resource directory of the build?");
        }
        FXMLLoader loader = new FXMLLoader(location, bundle);
        loader.setControllerFactory(this::controller);
        try {
            Parent root = loader.load();
            return new Loaded<>(root, loader.getController());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load the view " + view.resource() + ": " + e.getMessage(), e);
        }
    }

    private Object controller(Class<?> type) {
        Supplier<? extends FxController> supplier = controllers.get(type);
        if (supplier == null) {
            throw new IllegalStateException("no controller of type " + type.getName()
                    + " is registered with the loader factory");
        }
        return supplier.get();
    }

    /** A loaded view: its root node and its controller. */
    public record Loaded<C extends FxController>(Parent root, C controller) {
    }
}
