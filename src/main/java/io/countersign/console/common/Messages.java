package io.countersign.console.common;

import java.text.MessageFormat;
import java.time.Duration;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/** The console's texts: the bundle the views refer to as {@code %key}, and formatted texts for view models. */
public final class Messages {
    /** The bundle's base name: {@code io/countersign/console/messages.properties}. */
    public static final String BUNDLE = "io.countersign.console.messages";

    private final ResourceBundle bundle;

    private Messages(ResourceBundle bundle) {
        this.bundle = bundle;
    }

    /** The texts for a locale, falling back to English. */
    public static Messages forLocale(Locale locale) {
        return new Messages(ResourceBundle.getBundle(BUNDLE, locale));
    }

    public ResourceBundle bundle() {
        return bundle;
    }

    /** The text of a key, with {@link MessageFormat} arguments filled in. */
    public String get(String key, Object... arguments) {
        String pattern;
        try {
            pattern = bundle.getString(key);
        } catch (MissingResourceException e) {
            throw new IllegalArgumentException("no console text with key \"" + key + "\" in " + BUNDLE, e);
        }
        return arguments.length == 0 ? pattern : new MessageFormat(pattern, bundle.getLocale()).format(arguments);
    }

    /** A run id as the screens show it: its first eight characters, enough to tell runs apart. */
    public String shortRunId(String runId) {
        return runId.length() <= 8 ? runId : runId.substring(0, 8);
    }

    /** How long something has waited, short enough for a list: "< 1 min", "4 min", "2 h 5 min", "3 d 1 h". */
    public String elapsed(Duration duration) {
        long minutes = Math.max(0, duration.toMinutes());
        if (minutes < 1) {
            return get("elapsed.underMinute");
        }
        if (minutes < 60) {
            return get("elapsed.minutes", minutes);
        }
        if (minutes < 24 * 60) {
            return get("elapsed.hours", minutes / 60, minutes % 60);
        }
        return get("elapsed.days", minutes / (24 * 60), minutes % (24 * 60) / 60);
    }
}
