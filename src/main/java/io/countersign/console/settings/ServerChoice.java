package io.countersign.console.settings;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;

/** An MCP server record the profile form offers to front, and whether the admin picked it. */
public record ServerChoice(String name, BooleanProperty picked) {

    static ServerChoice of(String name, boolean picked) {
        return new ServerChoice(name, new SimpleBooleanProperty(picked));
    }
}
