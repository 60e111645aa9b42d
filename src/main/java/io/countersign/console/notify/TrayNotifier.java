package io.countersign.console.notify;

import java.awt.AWTException;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.SystemTray;
import java.awt.TrayIcon;
import java.awt.image.BufferedImage;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Notices on Windows and macOS: a tray icon (the notification area, the menu bar) that shows each notice as its
 * message; a click on the message or the icon opens the card of the last notice. AWT's tray cannot take a
 * message back, and knows one message at a time.
 */
public final class TrayNotifier implements DesktopNotifier {
    private static final int ICON_SIZE = 32;

    private final String tooltip;
    private volatile Consumer<String> listener = runId -> {
    };
    private volatile String lastRunId;
    private TrayIcon icon;

    TrayNotifier(String tooltip) {
        this.tooltip = Objects.requireNonNull(tooltip, "tooltip");
    }

    @Override
    public synchronized void show(ShownNotice notice) {
        TrayIcon shown = icon();
        lastRunId = notice.runId();
        shown.displayMessage(notice.summary(), notice.body(),
                notice.urgent() ? TrayIcon.MessageType.WARNING : TrayIcon.MessageType.INFO);
    }

    /** The tray icon, added at the first notice: a console that never notifies leaves the tray alone. */
    private TrayIcon icon() {
        if (icon != null) {
            return icon;
        }
        if (!SystemTray.isSupported()) {
            throw new NotifierException("this desktop has no system tray to show notices in");
        }
        TrayIcon created = new TrayIcon(image(), tooltip);
        created.setImageAutoSize(true);
        // Windows reports a click on the message as the icon's action; macOS a click on the icon
        created.addActionListener(event -> {
            String runId = lastRunId;
            if (runId != null) {
                listener.accept(runId);
            }
        });
        try {
            SystemTray.getSystemTray().add(created);
        } catch (AWTException e) {
            throw new NotifierException("the system tray refused the console's icon: " + e.getMessage(), e);
        }
        icon = created;
        return created;
    }

    /** The brand's check mark on the accent colour, drawn: the console ships no bitmap icon on its class path. */
    private static BufferedImage image() {
        BufferedImage image = new BufferedImage(ICON_SIZE, ICON_SIZE, BufferedImage.TYPE_INT_ARGB);
        Graphics2D graphics = image.createGraphics();
        graphics.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        graphics.setColor(new Color(0x0969DA));
        graphics.fillRoundRect(2, 2, ICON_SIZE - 4, ICON_SIZE - 4, 8, 8);
        graphics.setColor(Color.WHITE);
        graphics.setStroke(new java.awt.BasicStroke(3.5f, java.awt.BasicStroke.CAP_ROUND,
                java.awt.BasicStroke.JOIN_ROUND));
        graphics.drawPolyline(new int[] {9, 14, 23}, new int[] {17, 22, 11}, 3);
        graphics.dispose();
        return image;
    }

    @Override
    public void withdraw(String runId) {
        // AWT's tray has no way to take a message back
    }

    @Override
    public void onOpen(Consumer<String> opened) {
        this.listener = Objects.requireNonNull(opened, "opened");
    }

    @Override
    public String description() {
        return "the system tray";
    }

    @Override
    public synchronized void close() {
        if (icon != null) {
            SystemTray.getSystemTray().remove(icon);
            icon = null;
        }
    }
}
