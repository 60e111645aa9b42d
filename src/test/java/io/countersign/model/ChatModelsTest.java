package io.countersign.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ModelConfiguration;
import java.util.List;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChatModelsTest {
    private final ChatModels models = ChatModels.openAiCompatible(OkHttpClient::new, HttpModelOptions.DEFAULTS);

    private static ModelConfiguration configuration(String provider) {
        return new ModelConfiguration("assistant", provider, "some-model", "http://localhost:8080/v1",
                TrustZone.LOCAL, null, null, null, null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai", "ollama", "vllm", "lmstudio", "llamacpp", "openai-compatible"})
    void everyOpenAiCompatibleProviderGetsTheHttpClient(String provider) {
        assertThat(models.create(configuration(provider))).isInstanceOf(OpenAiCompatibleChatModel.class);
    }

    @Test
    void unknownProviderIsRefusedListingTheKnownOnes() {
        assertThatThrownBy(() -> models.create(configuration("anthropic")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown provider \"anthropic\"")
                .hasMessageContaining("llamacpp, lmstudio, ollama, openai, openai-compatible, vllm");
    }

    @Test
    void pluggedProviderServesItsConfigurations() throws Exception {
        ChatModel scripted = request -> new AssistantTurn("scripted answer", List.of(), TokenUsage.NONE);

        ChatModel created = models.with("scripted", configuration -> scripted)
                .create(ModelConfiguration.scripted("replay"));

        assertThat(created).isSameAs(scripted);
    }

    @Test
    void pluggingDoesNotChangeTheOriginalRegistry() {
        models.with("scripted", configuration -> request -> null);

        assertThat(models.providers()).doesNotContain("scripted");
    }

    @Test
    void pluggingAKnownProviderAgainIsRefused() {
        assertThatThrownBy(() -> models.with("ollama", configuration -> request -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"ollama\" is already registered");
    }

    @Test
    void configurationWithoutEndpointIsRefusedOnCreation() {
        ModelConfiguration noEndpoint = new ModelConfiguration("assistant", "openai", "gpt-4o-mini", null,
                TrustZone.EXTERNAL_GLOBAL, null, null, "OPENAI_API_KEY", null);

        assertThatThrownBy(() -> models.create(noEndpoint))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs an endpoint");
    }
}
