package io.countersign.console.notify;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Notices through libnotify's {@code notify-send}, for desktops whose session bus the D-Bus library cannot reach
 * (an abstract socket address, say) while {@code notify-send} can. Each notice is one {@code notify-send --wait}
 * process that prints the action a person took when the notification goes; nothing waits on it meanwhile. A
 * notification it showed cannot be taken back.
 */
public final class NotifySendNotifier implements DesktopNotifier {
    private static final Logger LOG = Logger.getLogger(NotifySendNotifier.class.getName());
    private static final Pattern PATH_SEPARATOR = Pattern.compile(Pattern.quote(java.io.File.pathSeparator));

    private final Path program;
    private final String openLabel;
    private volatile Consumer<String> listener = runId -> {
    };

    NotifySendNotifier(Path program, String openLabel) {
        this.program = Objects.requireNonNull(program, "program");
        this.openLabel = Objects.requireNonNull(openLabel, "openLabel");
    }

    /** {@code notify-send} where the search path has it. */
    static Optional<NotifySendNotifier> onPath(String searchPath, String openLabel) {
        if (searchPath == null) {
            return Optional.empty();
        }
        return PATH_SEPARATOR.splitAsStream(searchPath).filter(entry -> !entry.isBlank())
                .map(entry -> Path.of(entry, "notify-send")).filter(Files::isExecutable).findFirst()
                .map(found -> new NotifySendNotifier(found, openLabel));
    }

    /** The command line of a notice: the notification's default action is a click on it. */
    List<String> command(ShownNotice notice) {
        List<String> command = new ArrayList<>(List.of(program.toString(), "--app-name=" + FreedesktopNotifier.APP_NAME,
                "--icon=" + FreedesktopNotifier.DESKTOP_ENTRY, "--urgency=" + (notice.urgent() ? "critical" : "normal"),
                "--hint=string:desktop-entry:" + FreedesktopNotifier.DESKTOP_ENTRY,
                "--action=" + FreedesktopNotifier.DEFAULT_ACTION + "=" + openLabel, "--wait", "--"));
        command.add(notice.summary());
        command.add(FreedesktopNotifier.escape(notice.body()));
        return command;
    }

    @Override
    public void show(ShownNotice notice) {
        Process process;
        try {
            process = new ProcessBuilder(command(notice)).redirectErrorStream(false).start();
        } catch (IOException e) {
            throw new NotifierException(program + " cannot be started: " + e.getMessage(), e);
        }
        process.onExit().thenAccept(done -> ended(done, notice.runId()));
    }

    private void ended(Process done, String runId) {
        String printed = read(done.getInputStream()).strip();
        if (done.exitValue() != 0) {
            String problem = read(done.getErrorStream()).strip();
            LOG.warning(() -> program + " did not show the notice of run " + runId + " (exit " + done.exitValue()
                    + "): " + problem);
        } else if (printed.equals(FreedesktopNotifier.DEFAULT_ACTION)) {
            listener.accept(runId);
        }
    }

    private static String read(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void withdraw(String runId) {
        // notify-send cannot close what it showed; the notification goes by itself or when clicked
    }

    @Override
    public void onOpen(Consumer<String> opened) {
        this.listener = Objects.requireNonNull(opened, "opened");
    }

    @Override
    public String description() {
        return program + " (the session bus is out of the D-Bus library's reach)";
    }

    @Override
    public void close() {
        // each notification's process ends with its notification
    }
}
