package io.countersign.model;

import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.ModelException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;

/**
 * Picks the client for a model configuration's provider. Every OpenAI-compatible server shares one client
 * implementation and one HTTP connection pool; other providers, such as the engine's scripted model, are plugged
 * in with {@link #with}. Immutable: {@code with} returns a new registry.
 */
public final class ChatModels {
    /** The providers that speak OpenAI's chat-completions API. */
    public static final Set<String> OPENAI_COMPATIBLE =
            Set.of("openai", "ollama", "vllm", "lmstudio", "llamacpp", "openai-compatible");

    private final Map<String, Function<ModelConfiguration, ChatModel>> factories;

    private ChatModels(Map<String, Function<ModelConfiguration, ChatModel>> factories) {
        this.factories = Collections.unmodifiableMap(factories);
    }

    /**
     * A registry of the OpenAI-compatible providers, reading keys from the process environment.
     *
     * @param client the shared HTTP client, asked for when the first of these models is made
     */
    public static ChatModels openAiCompatible(Supplier<OkHttpClient> client, HttpModelOptions options) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(options, "options");
        Map<String, Function<ModelConfiguration, ChatModel>> factories = new LinkedHashMap<>();
        OPENAI_COMPATIBLE.stream().sorted().forEach(provider -> factories.put(provider,
                configuration -> new OpenAiCompatibleChatModel(configuration, client.get(), options)));
        return new ChatModels(factories);
    }

    /**
     * This registry plus one more provider.
     *
     * @throws IllegalArgumentException when the provider is blank or already known
     */
    public ChatModels with(String provider, Function<ModelConfiguration, ChatModel> factory) {
        Objects.requireNonNull(factory, "factory");
        if (provider == null || provider.isBlank()) {
            throw new IllegalArgumentException("a provider needs a name");
        }
        if (factories.containsKey(provider)) {
            throw new IllegalArgumentException("provider \"" + provider + "\" is already registered");
        }
        Map<String, Function<ModelConfiguration, ChatModel>> next = new LinkedHashMap<>(factories);
        next.put(provider, factory);
        return new ChatModels(next);
    }

    /** The providers this registry knows, in registration order. */
    public Set<String> providers() {
        return factories.keySet();
    }

    /**
     * A client for the configuration.
     *
     * @throws IllegalArgumentException when the provider is unknown, or the provider's client refuses the
     *                                  configuration (no endpoint, say)
     */
    public ChatModel create(ModelConfiguration configuration) {
        Function<ModelConfiguration, ChatModel> factory = factories.get(configuration.provider());
        if (factory == null) {
            throw new IllegalArgumentException("model configuration \"" + configuration.name()
                    + "\" names the unknown provider \"" + configuration.provider() + "\"; known providers: "
                    + String.join(", ", factories.keySet()));
        }
        return factory.apply(configuration);
    }

    /**
     * One model for the loop: each request goes to the client of the configuration it names, made once per
     * configuration, so an intent policy that switches models reaches the right endpoint. A configuration this
     * registry cannot serve fails that request with {@code provider_misconfigured}.
     */
    public ChatModel router() {
        Map<ModelConfiguration, ChatModel> clients = new ConcurrentHashMap<>();
        return request -> {
            ChatModel client;
            try {
                client = clients.computeIfAbsent(request.model(), this::create);
            } catch (IllegalArgumentException e) {
                throw new ModelException("provider_misconfigured", e.getMessage());
            }
            return client.complete(request);
        };
    }
}
