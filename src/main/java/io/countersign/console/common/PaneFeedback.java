package io.countersign.console.common;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;

/** What a pane tells the person about its service calls; its view binds labels and buttons to these. */
public interface PaneFeedback {
    /** What went wrong reading or changing, or why the service refused; empty otherwise. */
    ReadOnlyStringProperty problemProperty();

    /** What the last change did; empty otherwise. */
    ReadOnlyStringProperty statusProperty();

    /** Whether a change is under way; what starts another is disabled meanwhile. */
    ReadOnlyBooleanProperty busyProperty();
}
