package io.countersign.console.notify;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

/**
 * A notification server for tests: owns {@code org.freedesktop.Notifications} on a session bus, as a desktop's
 * daemon does, records every {@code Notify} and {@code CloseNotification} it receives, and sends the signals a
 * person's click or dismissal would.
 */
public final class NotificationRecorder implements FreedesktopNotifications, AutoCloseable {
    /** One {@code Notify} call as the server received it. */
    public record Received(long id, String appName, long replacesId, String appIcon, String summary, String body,
                           List<String> actions, Map<String, Object> hints, int expireTimeout) {
    }

    private final DBusConnection connection;
    private final List<String> capabilities;
    private final List<Received> received = new ArrayList<>();
    private final List<Long> closed = new ArrayList<>();
    private final AtomicLong ids = new AtomicLong();

    private NotificationRecorder(DBusConnection connection, List<String> capabilities) {
        this.connection = connection;
        this.capabilities = capabilities;
    }

    /** Starts serving on the bus at {@code address}, with these capabilities ({@code actions}, {@code body-markup}). */
    public static NotificationRecorder serve(String address, List<String> capabilities) throws DBusException {
        DBusConnection connection = DBusConnectionBuilder.forAddress(address).withShared(false).build();
        NotificationRecorder recorder = new NotificationRecorder(connection, List.copyOf(capabilities));
        connection.exportObject(PATH, recorder);
        connection.requestBusName(NAME);
        return recorder;
    }

    @Override
    public UInt32 showNotification(String appName, UInt32 replacesId, String appIcon, String summary, String body,
                         List<String> actions, Map<String, Variant<?>> hints, int expireTimeout) {
        long id = replacesId.longValue() != 0 ? replacesId.longValue() : ids.incrementAndGet();
        Map<String, Object> values = new java.util.TreeMap<>();
        hints.forEach((key, value) -> values.put(key, value.getValue()));
        synchronized (received) {
            received.add(new Received(id, appName, replacesId.longValue(), appIcon, summary, body, List.copyOf(actions),
                    values, expireTimeout));
        }
        return new UInt32(id);
    }

    @Override
    public void closeNotification(UInt32 id) {
        synchronized (closed) {
            closed.add(id.longValue());
        }
    }

    @Override
    public List<String> capabilities() {
        return capabilities;
    }

    @Override
    public String getObjectPath() {
        return PATH;
    }

    /** What was received so far, in order. */
    public List<Received> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    /** The ids {@code CloseNotification} was called with. */
    public List<Long> closed() {
        synchronized (closed) {
            return List.copyOf(closed);
        }
    }

    /** A person clicked the notification: its default action. */
    public void click(long id) throws DBusException {
        connection.sendMessage(new ActionInvoked(PATH, new UInt32(id), "default"));
    }

    /** A person dismissed the notification (reason 2). */
    public void dismiss(long id) throws DBusException {
        connection.sendMessage(new NotificationClosed(PATH, new UInt32(id), new UInt32(2)));
    }

    @Override
    public void close() {
        connection.disconnect();
    }
}
