package io.countersign.console.denials;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Messages;
import io.countersign.engine.event.EventType;
import java.time.ZoneOffset;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every kind of event the store records has a sentence in the denial browser's detail. */
class EventTextsTest {
    @ParameterizedTest
    @EnumSource(EventType.class)
    void everyEventTypeIsExplained(EventType type) {
        EventTexts texts = new EventTexts(Messages.forLocale(Locale.ENGLISH), ZoneOffset.UTC);

        assertThat(texts.explanation(type)).isNotBlank();
    }
}
