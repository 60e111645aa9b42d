package io.countersign.console.settings;

import io.countersign.service.ToolSettingView;
import java.util.Objects;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;

/**
 * One line of the tool settings table: the tool as the settings in force govern it, and the switches as the
 * admin has set them, saved or not.
 */
public final class ToolRow {
    private final ToolSettingView saved;
    private final BooleanProperty enabled;
    private final BooleanProperty approvalBound;
    private final BooleanBinding changed;
    private final ReadOnlyStringWrapper unattended = new ReadOnlyStringWrapper();

    ToolRow(ToolSettingView saved, String unattendedText) {
        this.saved = Objects.requireNonNull(saved, "saved");
        this.enabled = new SimpleBooleanProperty(saved.enabled());
        this.approvalBound = new SimpleBooleanProperty(saved.approvalBound());
        this.changed = Bindings.createBooleanBinding(
                () -> enabled.get() != saved.enabled() || approvalBound.get() != saved.approvalBound(),
                enabled, approvalBound);
        this.unattended.set(unattendedText);
    }

    /** The tool under the settings in force. */
    public ToolSettingView saved() {
        return saved;
    }

    /** Whether the admin may switch the approval: configurable tools, and remote tools through their server. */
    public boolean approvalSwitchable() {
        return saved.approvalControl().configurable() || isRemote();
    }

    public boolean isRemote() {
        return saved.server() != null;
    }

    /** The enabled switch as set now. */
    public BooleanProperty enabledProperty() {
        return enabled;
    }

    /** The approval switch as set now. */
    public BooleanProperty approvalBoundProperty() {
        return approvalBound;
    }

    /** Whether a switch differs from the settings in force. */
    public BooleanBinding changedProperty() {
        return changed;
    }

    /** Whether it runs unattended, and what a pending change would make of that ("no → yes"). */
    public ReadOnlyStringProperty unattendedProperty() {
        return unattended.getReadOnlyProperty();
    }

    void setUnattended(String text) {
        unattended.set(text);
    }

    /** Puts both switches back to the settings in force. */
    void reset() {
        enabled.set(saved.enabled());
        approvalBound.set(saved.approvalBound());
    }
}
