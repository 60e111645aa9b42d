package io.countersign.console.notify;

import java.util.Locale;
import java.util.Map;

/** The notifier of the system the console runs on, chosen by its name. */
public final class DesktopNotifiers {
    private DesktopNotifiers() {
    }

    /**
     * Windows and macOS: the system tray; every other system (Linux, the BSDs): the freedesktop notification
     * service on the session bus, or {@code notify-send} where the D-Bus library cannot reach it.
     *
     * @param osName      the {@code os.name} system property
     * @param environment the process's environment: {@code DBUS_SESSION_BUS_ADDRESS} and {@code PATH}
     * @param openLabel   what the notification's action is called where the desktop shows it as a button
     */
    public static DesktopNotifier forSystem(String osName, Map<String, String> environment, String openLabel) {
        String os = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("windows") || os.startsWith("mac")) {
            return new TrayNotifier(FreedesktopNotifier.APP_NAME);
        }
        return new LinuxNotifier(environment.get("DBUS_SESSION_BUS_ADDRESS"), environment.get("PATH"), openLabel);
    }
}
