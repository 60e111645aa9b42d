package io.countersign.console;

import io.countersign.console.common.Theme;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * One person's console settings on one machine, such as the theme they picked and where the window stood: a
 * small properties file, read
 * once before the window opens and written again when a setting changes. A file that cannot be read, or a value
 * this version does not know, leaves the default in place with a warning in the log; the next change replaces
 * the file. (A properties file rather than {@code java.util.prefs}, whose XML parser and sync thread cost the
 * start-up about 150 classes.)
 */
public final class ConsoleSettings {
    private static final Logger LOG = Logger.getLogger(ConsoleSettings.class.getName());
    private static final String THEME = "theme";
    private static final String STORE_URL = "store.url";
    private static final String STORE_USER = "store.user";
    /** Followed by the person's name: several people may sign in to the console on one machine account. */
    private static final String NOTICES_MUTED = "notifications.muted.";
    private static final List<String> PLACEMENT = List.of("window.x", "window.y", "window.width", "window.height",
            "window.listWidth", "window.denialsDetailWidth");

    private final Path file;
    private final Properties values;
    /** The theme the file names, {@code null} when it names none this version has. */
    private Theme picked;

    private ConsoleSettings(Path file, Properties values) {
        this.file = file;
        this.values = values;
        this.picked = pickedTheme(file, values.getProperty(THEME));
    }

    /**
     * Where the settings live: {@code $XDG_CONFIG_HOME/countersign/console.properties}, else
     * {@code ~/.config/countersign/console.properties}.
     */
    public static Path defaultFile(Map<String, String> environment) {
        String configHome = environment.get("XDG_CONFIG_HOME");
        Path base = configHome != null && !configHome.isBlank() ? Path.of(configHome)
                : Path.of(environment.getOrDefault("HOME", System.getProperty("user.home")), ".config");
        return base.resolve("countersign").resolve("console.properties");
    }

    /**
     * The team store and login this person last signed in to, with the file's other settings; never a password.
     *
     * @param url  the store URL without its login
     * @param user the PostgreSQL login
     */
    public record RememberedLogin(String url, String user) {
    }

    /** The store and login the settings in {@code file} remember, if they remember one. */
    public static Optional<RememberedLogin> rememberedLogin(Path file) {
        Properties values = read(file).values;
        String url = values.getProperty(STORE_URL, "");
        String user = values.getProperty(STORE_USER, "");
        return url.isBlank() || user.isBlank() ? Optional.empty() : Optional.of(new RememberedLogin(url, user));
    }

    /**
     * Keeps the store and login a person signed in to, never the password. Writes the file, so not on the JavaFX
     * thread.
     */
    synchronized void keepLogin(RememberedLogin login) {
        values.setProperty(STORE_URL, login.url());
        values.setProperty(STORE_USER, login.user());
        write("the store and user you signed in to");
    }

    /** Reads the settings in {@code file}; a missing file holds none. */
    static ConsoleSettings read(Path file) {
        Properties values = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            values.load(reader);
        } catch (NoSuchFileException e) {
            // nothing chosen yet
        } catch (IOException | IllegalArgumentException e) {
            LOG.warning(() -> "the console's settings in " + file + " cannot be read (" + e.getMessage()
                    + "); the defaults apply until a setting changes");
            values.clear();
        }
        return new ConsoleSettings(file, values);
    }

    private static Theme pickedTheme(Path file, String saved) {
        if (saved == null) {
            return null;
        }
        for (Theme theme : Theme.values()) {
            if (theme.name().equals(saved)) {
                return theme;
            }
        }
        LOG.warning(() -> "the console's settings in " + file + " name the theme \"" + saved
                + "\", which this version does not have; the default applies");
        return null;
    }

    /** The theme the person picked, else {@code fallback}. */
    synchronized Theme theme(Theme fallback) {
        return picked != null ? picked : fallback;
    }

    /** Keeps {@code theme} for the next start. Writes the file, so not on the JavaFX thread. */
    synchronized void keepTheme(Theme theme) {
        picked = theme;
        values.setProperty(THEME, theme.name());
        write("the theme");
    }

    /** Whether the person of this name muted the desktop notifications; not muted until they do. */
    synchronized boolean noticesMuted(String person) {
        return Boolean.parseBoolean(values.getProperty(NOTICES_MUTED + person, "false"));
    }

    /** Keeps whether the person muted the desktop notifications. Writes the file, so not on the JavaFX thread. */
    synchronized void keepNoticesMuted(String person, boolean muted) {
        values.setProperty(NOTICES_MUTED + person, Boolean.toString(muted));
        write("whether desktop notifications are muted");
    }

    /** Where the window stood when it last closed; empty when the file says nothing usable about it. */
    synchronized Optional<WindowPlacement> placement() {
        if (PLACEMENT.stream().noneMatch(values::containsKey)) {
            return Optional.empty();
        }
        try {
            double[] numbers = PLACEMENT.stream().mapToDouble(key -> Double.parseDouble(values.getProperty(key, "")))
                    .toArray();
            return Optional.of(new WindowPlacement(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4],
                    numbers[5]));
        } catch (IllegalArgumentException e) {
            // NumberFormatException included: the window opens at its default place
            LOG.warning(() -> "the console's settings in " + file + " say nothing usable about the window ("
                    + e.getMessage() + "); it opens at its default size");
            return Optional.empty();
        }
    }

    /** Keeps where the window stands for the next start. Writes the file, so not on the JavaFX thread. */
    synchronized void keepPlacement(WindowPlacement placement) {
        double[] numbers = {placement.x(), placement.y(), placement.width(), placement.height(),
                placement.listWidth(), placement.denialsDetailWidth()};
        for (int i = 0; i < numbers.length; i++) {
            values.setProperty(PLACEMENT.get(i), Long.toString(Math.round(numbers[i])));
        }
        write("the window's place");
    }

    private void write(String what) {
        Path temporary = null;
        try {
            Files.createDirectories(file.getParent());
            // a whole new file moved over the old one: a crash mid-write cannot leave half a file
            temporary = Files.createTempFile(file.getParent(), ".console-", ".tmp");
            try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
                values.store(writer, "Countersign console settings");
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.warning(() -> what + " cannot be kept for the next start: " + file + ": " + e);
            deleteQuietly(temporary);
        }
    }

    private static void deleteQuietly(Path temporary) {
        if (temporary == null) {
            return;
        }
        try {
            Files.deleteIfExists(temporary);
        } catch (IOException e) {
            LOG.fine(() -> "a temporary settings file stays behind: " + temporary);
        }
    }
}
