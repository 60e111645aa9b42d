package io.countersign.engine.rules;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.Locale;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;

class ExplanationsTest {
    private static ResourceBundle bundle(Locale locale) {
        return ResourceBundle.getBundle("io.countersign.engine.rules.Explanations", locale,
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    }

    @Test
    void germanTranslatesEveryEnglishSentence() {
        ResourceBundle english = bundle(Locale.ROOT);
        ResourceBundle german = bundle(Locale.GERMAN);

        assertThat(german.keySet()).isEqualTo(english.keySet());
        english.keySet().forEach(code -> assertThat(german.getString(code)).as(code)
                .isNotEqualTo(english.getString(code)));
    }

    @Test
    void everyExplanationIsOneSentence() {
        for (Locale locale : new Locale[] {Locale.ROOT, Locale.GERMAN}) {
            ResourceBundle explanations = bundle(locale);
            explanations.keySet().forEach(code -> assertThat(Explanations.explain(code, locale, "x"))
                    .as(code).endsWith(".").doesNotContain(". "));
        }
    }
}
