package io.countersign.engine.rules;

import java.text.MessageFormat;
import java.util.Locale;
import java.util.ResourceBundle;

/**
 * The built-in rules' explanations: one sentence per reason code for the person behind the run, in their language
 * (bundle {@code io/countersign/engine/rules/Explanations}; English is the base, German ships beside it).
 */
final class Explanations {
    private static final String BUNDLE = "io.countersign.engine.rules.Explanations";
    // Without fallback to the JVM's default locale: a French person gets English, not the server's German.
    private static final ResourceBundle.Control NO_DEFAULT_LOCALE =
            ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES);

    private Explanations() {
    }

    static String explain(String reasonCode, Locale locale, Object... arguments) {
        ResourceBundle bundle = ResourceBundle.getBundle(BUNDLE, locale, NO_DEFAULT_LOCALE);
        return new MessageFormat(bundle.getString(reasonCode), locale).format(arguments);
    }
}
