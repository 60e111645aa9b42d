package io.countersign.console.common;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/** Whether the last call to the service layer got through; the window shows a banner while it does not. */
public final class ConnectionState {
    private final ReadOnlyBooleanWrapper connected = new ReadOnlyBooleanWrapper(true);
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");

    public ReadOnlyBooleanProperty connectedProperty() {
        return connected.getReadOnlyProperty();
    }

    /** What went wrong the last time, empty while connected. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    public boolean isConnected() {
        return connected.get();
    }

    /** A call got through. */
    public void succeeded() {
        problem.set("");
        connected.set(true);
    }

    /** A call failed for a reason other than the user's permissions. */
    public void failed(Throwable failure) {
        String message = failure.getMessage();
        problem.set(message == null || message.isBlank() ? failure.getClass().getSimpleName() : message);
        connected.set(false);
    }
}
