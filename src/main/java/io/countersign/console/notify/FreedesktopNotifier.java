package io.countersign.console.notify;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

/**
 * Notices through the freedesktop notification service on the session bus (GNOME, KDE, Xfce, dunst, mako, …),
 * over a private dbus-java connection. A click on a notification ({@code ActionInvoked} with the key
 * {@code default}) opens its card; {@code NotificationClosed} forgets it.
 */
public final class FreedesktopNotifier implements DesktopNotifier {
    private static final Logger LOG = Logger.getLogger(FreedesktopNotifier.class.getName());
    /** The name of the console's desktop entry and of its icon in the icon theme (see packaging/linux). */
    static final String DESKTOP_ENTRY = "io.countersign.Countersign";
    static final String APP_NAME = "Countersign";
    static final String DEFAULT_ACTION = "default";
    private static final int CONNECT_TIMEOUT_MILLIS = 2000;
    private static final byte NORMAL = 1;
    private static final byte CRITICAL = 2;

    private final DBusConnection connection;
    private final FreedesktopNotifications service;
    private final boolean markup;
    private final boolean actions;
    private final String openLabel;
    private final Map<Long, String> runsById = new ConcurrentHashMap<>();
    private final Map<String, Long> idsByRun = new ConcurrentHashMap<>();
    private final List<AutoCloseable> handlers;
    private volatile Consumer<String> listener = runId -> {
    };

    private FreedesktopNotifier(DBusConnection connection, FreedesktopNotifications service, List<String> capabilities,
                                String openLabel) throws DBusException {
        this.connection = connection;
        this.service = service;
        this.markup = capabilities.contains("body-markup");
        this.actions = capabilities.contains("actions");
        this.openLabel = openLabel;
        this.handlers = List.of(
                connection.addSigHandler(FreedesktopNotifications.ActionInvoked.class, this::actionInvoked),
                connection.addSigHandler(FreedesktopNotifications.NotificationClosed.class, this::closed));
    }

    /**
     * Connects to the notification service on a session bus and asks what it can do.
     *
     * @param busAddress such as {@code unix:path=/run/user/1000/bus}; {@code null} for the session bus this
     *                   process was started in ({@code DBUS_SESSION_BUS_ADDRESS})
     * @param openLabel  the label of the default action, for servers that show actions as buttons
     * @throws NotifierException when there is no bus to connect to or no notification service on it
     */
    public static FreedesktopNotifier connect(String busAddress, String openLabel) {
        Objects.requireNonNull(openLabel, "openLabel");
        DBusConnection connection;
        try {
            DBusConnectionBuilder builder = busAddress == null ? DBusConnectionBuilder.forSessionBus()
                    : DBusConnectionBuilder.forAddress(busAddress);
            // the library retries a refused connection for ten seconds by default: a desktop's bus answers at once
            connection = builder.withShared(false).transportConfig().withTimeout(CONNECT_TIMEOUT_MILLIS).back()
                    .build();
        } catch (DBusException | RuntimeException e) {
            throw new NotifierException("the session bus" + (busAddress == null ? "" : " at " + busAddress)
                    + " cannot be reached: " + e.getMessage(), e);
        }
        try {
            FreedesktopNotifications service = connection.getRemoteObject(FreedesktopNotifications.NAME,
                    FreedesktopNotifications.PATH, FreedesktopNotifications.class);
            return new FreedesktopNotifier(connection, service, service.capabilities(), openLabel);
        } catch (DBusException | DBusExecutionException e) {
            connection.disconnect();
            throw new NotifierException("no notification service answers on the session bus ("
                    + FreedesktopNotifications.NAME + "): " + e.getMessage(), e);
        }
    }

    @Override
    public void show(ShownNotice notice) {
        Long earlier = idsByRun.get(notice.runId());
        Map<String, Variant<?>> hints = Map.of(
                "urgency", new Variant<>(notice.urgent() ? CRITICAL : NORMAL),
                "desktop-entry", new Variant<>(DESKTOP_ENTRY),
                "category", new Variant<>("im.received"));
        try {
            // a second notice of the same card (escalated, then the deadline near) replaces the first
            UInt32 id = service.showNotification(APP_NAME, new UInt32(earlier == null ? 0 : earlier), DESKTOP_ENTRY,
                    notice.summary(), markup ? escape(notice.body()) : notice.body(),
                    actions ? List.of(DEFAULT_ACTION, openLabel) : List.of(), hints, -1);
            runsById.put(id.longValue(), notice.runId());
            idsByRun.put(notice.runId(), id.longValue());
        } catch (DBusExecutionException e) {
            throw new NotifierException("the notification service refused the notice: " + e.getMessage(), e);
        }
    }

    @Override
    public void withdraw(String runId) {
        Long id = idsByRun.remove(runId);
        if (id == null) {
            return;
        }
        runsById.remove(id);
        try {
            service.closeNotification(new UInt32(id));
        } catch (DBusExecutionException e) {
            // gone already, or the server cannot close it: either way nothing more to do
            LOG.fine(() -> "the notification of run " + runId + " could not be closed: " + e.getMessage());
        }
    }

    @Override
    public void onOpen(Consumer<String> opened) {
        this.listener = Objects.requireNonNull(opened, "opened");
    }

    @Override
    public String description() {
        return "the freedesktop notification service over D-Bus";
    }

    private void actionInvoked(FreedesktopNotifications.ActionInvoked signal) {
        String runId = runsById.get(signal.id().longValue());
        if (runId != null && DEFAULT_ACTION.equals(signal.actionKey())) {
            listener.accept(runId);
        }
    }

    private void closed(FreedesktopNotifications.NotificationClosed signal) {
        String runId = runsById.remove(signal.id().longValue());
        if (runId != null) {
            idsByRun.remove(runId, signal.id().longValue());
        }
    }

    /** The body markup of the specification is a small subset of XML: names with {@code <} or {@code &} stay text. */
    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    @Override
    public void close() {
        for (AutoCloseable handler : handlers) {
            try {
                handler.close();
            } catch (Exception e) {
                LOG.fine(() -> "a D-Bus signal handler could not be removed: " + e);
            }
        }
        connection.disconnect();
    }
}
