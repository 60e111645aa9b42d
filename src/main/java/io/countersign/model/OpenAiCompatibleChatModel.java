package io.countersign.model;

import io.countersign.engine.RetryAfter;
import io.countersign.engine.RetryPolicy;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.port.ModelException;
import io.countersign.engine.chat.ModelConfiguration;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

/**
 * A model behind an OpenAI-compatible chat-completions endpoint: OpenAI itself, Ollama, vLLM, LM Studio or
 * llama.cpp's server. Posts to {@code {endpoint}/chat/completions}, with a bearer key when the configuration
 * names one, offers tools under function names the provider accepts ({@link FunctionNames}), and retries a 429, a
 * 5xx or a dropped connection by its options' {@link HttpModelOptions#retries() retry policy}, honouring
 * {@code Retry-After}. Every failure, including an answer it cannot read, is a {@link ModelException} whose
 * reason code says what kind:
 * <ul>
 *   <li>{@code timeout}: no connection, a silent provider, or an attempt longer than the call timeout;</li>
 *   <li>{@code provider_rejected}: a redirect or a 4xx other than 429, with its status (never the body);</li>
 *   <li>{@code provider_unavailable}: 429s, 5xxs or dropped connections after the last retry;</li>
 *   <li>{@code malformed_response}: an answer that is not a usable turn, saying what is wrong with it;</li>
 *   <li>{@code missing_credentials}, {@code invalid_credentials}: the configured key cannot be read or sent;</li>
 *   <li>{@code invalid_request}, {@code model_mismatch}: a request this client cannot send;</li>
 *   <li>{@code interrupted}: the thread was interrupted while waiting for an answer or a retry;</li>
 *   <li>{@code client_failed}: a fault of this client itself.</li>
 * </ul>
 * The API key is read for each request and never held, logged or quoted. Safe for concurrent use.
 */
public final class OpenAiCompatibleChatModel implements ChatModel {
    /** The longest wait before a retry, whatever the provider's {@code Retry-After} asks for. */
    public static final Duration MAX_RETRY_WAIT = Duration.ofSeconds(60);
    /** The largest answer read; a bigger one is refused rather than held in memory. */
    public static final long MAX_RESPONSE_BYTES = 16L * 1024 * 1024;

    private static final MediaType JSON = MediaType.get("application/json");
    private static final System.Logger LOG = System.getLogger(OpenAiCompatibleChatModel.class.getName());

    private final ModelConfiguration configuration;
    private final HttpUrl url;
    private final String where;
    private final ApiKeySource apiKey;
    private final OkHttpClient client;
    private final HttpModelOptions options;
    private final RetryPolicy retryPolicy;
    private final Function<String, String> environment;
    private final Sleeper sleeper;

    /** A client that reads its key from the process environment and really sleeps between retries. */
    public OpenAiCompatibleChatModel(ModelConfiguration configuration, OkHttpClient client,
                                     HttpModelOptions options) {
        this(configuration, client, options, System::getenv, Sleeper.SYSTEM);
    }

    /**
     * @param configuration the model this client talks to; its endpoint is the API's base URL, such as
     *                      {@code https://api.openai.com/v1} or {@code http://localhost:11434/v1}
     * @param client        the shared HTTP client; this model derives its own timeouts from it and shares its
     *                      connection pool and threads
     * @param environment   looks up an environment variable by name, {@code null} when it is unset
     * @param sleeper       waits between retries
     * @throws IllegalArgumentException when the configuration has no usable endpoint or names two key sources
     */
    public OpenAiCompatibleChatModel(ModelConfiguration configuration, OkHttpClient client, HttpModelOptions options,
                                     Function<String, String> environment, Sleeper sleeper) {
        this.configuration = Objects.requireNonNull(configuration, "configuration");
        this.options = Objects.requireNonNull(options, "options");
        this.retryPolicy = options.retries();
        this.environment = Objects.requireNonNull(environment, "environment");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.url = chatCompletionsUrl(configuration);
        this.where = "model \"" + configuration.name() + "\" at " + url.newBuilder().username("").password("")
                .query(null).fragment(null).build();
        this.apiKey = ApiKeySource.of(configuration);
        this.client = client.newBuilder()
                .connectTimeout(options.connectTimeout())
                .readTimeout(options.readTimeout())
                .callTimeout(options.callTimeout())
                // A redirect would turn the POST into a GET; a moved endpoint is a configuration to fix.
                .followRedirects(false)
                .build();
    }

    private static HttpUrl chatCompletionsUrl(ModelConfiguration configuration) {
        String endpoint = configuration.endpoint();
        if (endpoint == null || endpoint.isBlank()) {
            throw new IllegalArgumentException("model configuration \"" + configuration.name() + "\" (provider "
                    + configuration.provider() + ") needs an endpoint, the API's base URL, such as "
                    + "https://api.openai.com/v1 or http://localhost:11434/v1");
        }
        HttpUrl base = HttpUrl.parse(endpoint.trim());
        if (base == null) {
            throw new IllegalArgumentException("the endpoint of model configuration \"" + configuration.name()
                    + "\" is not an http or https URL: " + endpoint);
        }
        return base.newBuilder().addPathSegments("chat/completions").build();
    }

    @Override
    public AssistantTurn complete(ChatRequest request) throws ModelException {
        try {
            return send(request);
        } catch (RuntimeException e) {
            // The contract is a ModelException for every failure; this names a fault of the client itself.
            throw new ModelException("client_failed", where + " failed unexpectedly ("
                    + e.getClass().getSimpleName() + ")", e);
        }
    }

    private AssistantTurn send(ChatRequest request) throws ModelException {
        if (!configuration.equals(request.model())) {
            // Sending one model's request to another's endpoint would cross trust zones unnoticed.
            throw new ModelException("model_mismatch", "this client serves model configuration \""
                    + configuration.name() + "\" but the request is for \"" + request.model().name() + "\"");
        }
        Optional<String> key = apiKey.read(environment);
        FunctionNames names = FunctionNames.of(request);
        Request.Builder builder = new Request.Builder()
                .url(url)
                .header("Accept", "application/json")
                .post(RequestBody.create(ChatCompletionsFormat.requestBody(configuration, request, names),
                        JSON));
        key.ifPresent(value -> builder.header("Authorization", "Bearer " + value));
        Request httpRequest = builder.build();
        for (int retries = 0; ; retries++) {
            Attempt attempt = attempt(httpRequest, names);
            if (attempt instanceof Attempt.Answered answered) {
                return answered.turn();
            }
            Attempt.Retryable failure = (Attempt.Retryable) attempt;
            if (!retryPolicy.allowsAnother(retries + 1)) {
                throw new ModelException("provider_unavailable", where + " failed " + (retries + 1)
                        + (retries == 0 ? " time" : " times") + "; the last answer: " + failure.what());
            }
            Duration wait = retryPolicy.delayBefore(retries + 1, failure.retryAfter());
            LOG.log(System.Logger.Level.INFO, "{0}: {1}; retry {2} of {3} in {4} ms", where, failure.what(),
                    retries + 1, options.maxRetries(), wait.toMillis());
            try {
                sleeper.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ModelException("interrupted", where + ": interrupted while waiting to retry", e);
            }
        }
    }

    /** Sends once: the turn or a failure worth retrying; a final failure is thrown. */
    private Attempt attempt(Request httpRequest, FunctionNames names) throws ModelException {
        long started = System.nanoTime();
        try (Response response = client.newCall(httpRequest).execute()) {
            int status = response.code();
            ResponseBody body = response.body();
            if (response.isSuccessful()) {
                byte[] bytes = readUpTo(body, MAX_RESPONSE_BYTES + 1);
                if (bytes.length > MAX_RESPONSE_BYTES) {
                    throw new ModelException("malformed_response", where + " answered more than "
                            + MAX_RESPONSE_BYTES + " bytes");
                }
                return new Attempt.Answered(parse(bytes, response.header("Content-Type"), names));
            }
            // The body is the provider's own text (which may echo the request or a key): it is never read or
            // quoted, so it reaches no model, transcript, log or failure line.
            String location = response.isRedirect() ? response.header("Location") : null;
            String said = "HTTP " + status + (location == null ? ""
                    : " (redirects to " + ChatCompletionsFormat.truncate(location) + ")");
            if (status == 429 || status >= 500) {
                return new Attempt.Retryable(said, retryAfter(response.headers()));
            }
            throw new ModelException("provider_rejected", where + " rejected the request with " + said);
        } catch (InterruptedIOException e) {
            throw timeout(e, Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException e) {
            return new Attempt.Retryable("connection failed (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + ChatCompletionsFormat.truncate(e.getMessage())) + ")",
                    Optional.empty());
        }
    }

    private AssistantTurn parse(byte[] body, String contentType, FunctionNames names) throws ModelException {
        try {
            return ChatCompletionsFormat.parseResponse(body, contentType, names);
        } catch (ModelException e) {
            throw new ModelException(e.reasonCode(), where + " answered something unusable: " + e.getMessage(),
                    e.getCause());
        }
    }

    private ModelException timeout(InterruptedIOException e, Duration elapsed) {
        if (Thread.currentThread().isInterrupted()) {
            return new ModelException("interrupted", where + ": interrupted while waiting for the answer", e);
        }
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        String what;
        // Which timer fired shows in the time taken; the exception's type depends on where the read was cut.
        if (elapsed.compareTo(options.callTimeout()) >= 0) {
            what = "did not answer within the call timeout of " + options.callTimeout().toMillis() + " ms";
        } else if (message.contains("connect")) {
            what = "could not connect within " + options.connectTimeout().toMillis() + " ms";
        } else {
            what = "went silent for longer than the read timeout of " + options.readTimeout().toMillis() + " ms";
        }
        return new ModelException("timeout", where + " " + what, e);
    }

    /** The provider's {@code Retry-After} (seconds or an HTTP date), or first OpenAI's {@code retry-after-ms}. */
    private static Optional<Duration> retryAfter(Headers headers) {
        String millis = headers.get("retry-after-ms");
        if (millis != null && millis.trim().matches("\\d{1,12}")) {
            return Optional.of(Duration.ofMillis(Long.parseLong(millis.trim())));
        }
        return RetryAfter.parse(headers.get("Retry-After"), headers.get("Date"), Instant.now());
    }

    private static byte[] readUpTo(ResponseBody body, long limit) throws IOException {
        BufferedSource source = body.source();
        source.request(limit);
        return source.getBuffer().readByteArray(Math.min(source.getBuffer().size(), limit));
    }

    @Override
    public String toString() {
        return "OpenAiCompatibleChatModel[" + where + ", " + configuration.model() + ", key: " + apiKey + "]";
    }

    /** Waits between retries; tests pass one that records instead of sleeping. */
    @FunctionalInterface
    public interface Sleeper {
        Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis());

        void sleep(Duration duration) throws InterruptedException;
    }

    private sealed interface Attempt {
        record Answered(AssistantTurn turn) implements Attempt {
        }

        record Retryable(String what, Optional<Duration> retryAfter) implements Attempt {
        }
    }
}
