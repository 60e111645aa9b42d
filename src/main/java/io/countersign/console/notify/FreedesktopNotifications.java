package io.countersign.console.notify;

import java.util.List;
import java.util.Map;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.annotations.DBusMemberName;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.messages.DBusSignal;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

/**
 * The part of the Desktop Notifications Specification (org.freedesktop.Notifications, version 1.2) the console
 * uses, as dbus-java maps it: {@code Notify}, {@code CloseNotification}, {@code GetCapabilities}, and the two
 * signals a notification ends with.
 */
@DBusInterfaceName(FreedesktopNotifications.NAME)
public interface FreedesktopNotifications extends DBusInterface {
    /** The bus name and interface of the service. */
    String NAME = "org.freedesktop.Notifications";
    /** The object the service lives at. */
    String PATH = "/org/freedesktop/Notifications";

    /**
     * Shows a notification; returns its id, which the signals name.
     *
     * @param actions       pairs of action key and label; the key {@code default} is a click on the notification
     * @param expireTimeout milliseconds; -1 leaves it to the server, 0 never expires
     */
    @DBusMemberName("Notify")
    UInt32 showNotification(String appName, UInt32 replacesId, String appIcon, String summary, String body,
                  List<String> actions, Map<String, Variant<?>> hints, int expireTimeout);

    @DBusMemberName("CloseNotification")
    void closeNotification(UInt32 id);

    /** Such as {@code actions}, {@code body}, {@code body-markup}. */
    @DBusMemberName("GetCapabilities")
    List<String> capabilities();

    /** A person invoked an action of a notification: {@code default} when they clicked it. */
    @DBusMemberName("ActionInvoked")
    class ActionInvoked extends DBusSignal {
        private final UInt32 id;
        private final String actionKey;

        public ActionInvoked(String path, UInt32 id, String actionKey) throws DBusException {
            super(path, id, actionKey);
            this.id = id;
            this.actionKey = actionKey;
        }

        public UInt32 id() {
            return id;
        }

        public String actionKey() {
            return actionKey;
        }
    }

    /** A notification went: expired (1), dismissed (2), closed by a call (3), or otherwise (4). */
    @DBusMemberName("NotificationClosed")
    class NotificationClosed extends DBusSignal {
        private final UInt32 id;
        private final UInt32 reason;

        public NotificationClosed(String path, UInt32 id, UInt32 reason) throws DBusException {
            super(path, id, reason);
            this.id = id;
            this.reason = reason;
        }

        public UInt32 id() {
            return id;
        }

        public UInt32 reason() {
            return reason;
        }
    }
}
