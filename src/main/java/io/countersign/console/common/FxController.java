package io.countersign.console.common;

/**
 * Marks the controller of an FXML view. A controller only wires the view's nodes to its view model and
 * delegates events; state and decisions live in the view model.
 */
public interface FxController {
}
