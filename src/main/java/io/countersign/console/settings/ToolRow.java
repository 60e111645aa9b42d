package io.countersign.console.settings;

import io.countersign.engine.tool.RemoteDeclaration;
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
    /** For a remote tool: it has no declaration of its own and follows its server's. */
    private final BooleanProperty followsServer;
    private final BooleanBinding changed;
    private final ReadOnlyStringWrapper unattended = new ReadOnlyStringWrapper();

    ToolRow(ToolSettingView saved, String unattendedText) {
        this.saved = Objects.requireNonNull(saved, "saved");
        this.enabled = new SimpleBooleanProperty(saved.enabled());
        this.approvalBound = new SimpleBooleanProperty(saved.approvalBound());
        this.followsServer = new SimpleBooleanProperty(followsServerSaved());
        this.changed = Bindings.createBooleanBinding(
                () -> enabled.get() != saved.enabled() || approvalBound.get() != saved.approvalBound()
                        || followsServer.get() != followsServerSaved(),
                enabled, approvalBound, followsServer);
        this.unattended.set(unattendedText);
    }

    /** The tool under the settings in force. */
    public ToolSettingView saved() {
        return saved;
    }

    /** Whether the admin may switch the approval: configurable tools, and remote tools by their own declaration. */
    public boolean approvalSwitchable() {
        return saved.approvalControl().configurable();
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

    /**
     * For a remote tool, whether it follows its server's declaration (no declaration of its own), as set now;
     * switching its approval declares it by itself.
     */
    public BooleanProperty followsServerProperty() {
        return followsServer;
    }

    /** Whether the remote tool follows its server's declaration under the settings in force. */
    public boolean followsServerSaved() {
        return saved.declaration() != null && saved.declaration().source() == RemoteDeclaration.Source.SERVER;
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
        followsServer.set(followsServerSaved());
    }
}
