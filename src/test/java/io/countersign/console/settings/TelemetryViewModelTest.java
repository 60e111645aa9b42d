package io.countersign.console.settings;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.console.common.Messages;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.service.SettingsService;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The telemetry form's own checks: what it refuses before it asks the service anything. */
class TelemetryViewModelTest {

    /** What the form handed to its executor: the service calls it asked for. */
    private final List<Runnable> asked = new ArrayList<>();

    private TelemetryViewModel form(List<String> environment) {
        SettingsService none = (SettingsService) Proxy.newProxyInstance(SettingsService.class.getClassLoader(),
                new Class<?>[] {SettingsService.class}, (proxy, method, arguments) -> {
                    throw new AssertionError("a view-model test called the service: " + method.getName());
                });
        return new TelemetryViewModel(none, Actor.of("root", Role.ADMIN), asked::add,
                Messages.forLocale(Locale.ENGLISH), environment);
    }

    @Test
    void itStartsFromNothingStored() {
        TelemetryViewModel form = form(List.of());
        assertThat(form.endpointProperty().get()).isEmpty();
        assertThat(form.serviceNameProperty().get()).isEqualTo("countersign");
        assertThat(form.samplerRatioProperty().get()).isEqualTo("1");
        assertThat(form.captureContentProperty().get()).isFalse();
        assertThat(form.environmentNote())
                .isEqualTo("A process’s OTEL_* environment variables win over these settings in that process.");
    }

    @Test
    void theVariablesOfThisConsolesEnvironmentAreNamed() {
        assertThat(form(List.of("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SERVICE_NAME")).environmentNote())
                .endsWith("this console’s environment sets OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME.");
    }

    @Test
    void aShareOfRunsThatIsNoNumberIsRefused() {
        TelemetryViewModel form = form(List.of());
        form.samplerRatioProperty().set("a quarter");
        form.save();
        assertThat(form.formErrorProperty().get()).isEqualTo("Runs traced must be a number from 0 to 1, such as 0.25.");
        assertThat(asked).isEmpty();
    }

    @Test
    void aCredentialTypedAsAValueIsRefusedWithoutRepeatingIt() {
        TelemetryViewModel form = form(List.of());
        form.endpointProperty().set("http://collector.example.org:4318");
        form.headersProperty().set("x-api-key=abc123secret");
        form.save();
        assertThat(form.formErrorProperty().get()).contains("x-api-key").contains("env:NAME")
                .doesNotContain("abc123secret");
        assertThat(asked).isEmpty();
    }

    @Test
    void aHeaderLineWithoutAValueIsNamedByItsLine() {
        TelemetryViewModel form = form(List.of());
        form.headersProperty().set("x-scope-orgid=team-a\nauthorization");
        form.save();
        assertThat(form.formErrorProperty().get()).startsWith("header line 2 must read name=value");
        assertThat(asked).isEmpty();
    }
}
