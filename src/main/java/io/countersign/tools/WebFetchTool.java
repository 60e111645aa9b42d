package io.countersign.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.ConfigurableApproval;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.FixedTool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * {@code web_fetch}: GETs a text document over http or https. It needs approval unless an admin switches that
 * off, which is safe only together with an allow-list of hosts: while the list is not empty, every host the
 * request reaches, redirects included, must be on it. Redirects are followed here, one hop at a time, so that
 * each host is checked before it is contacted.
 */
public final class WebFetchTool extends FixedTool implements ConfigurableApproval {
    public static final String NAME = "web_fetch";
    /** The most response bytes read; the rest of a longer response is never downloaded. */
    public static final int MAX_BODY_BYTES = 50_000;
    public static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final int MAX_REDIRECTS = 5;

    private static final StringParameters PARAMETERS = StringParameters.builder()
            .required("url", "The http or https URL to fetch.")
            .build();
    private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):");
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

    private final Supplier<OkHttpClient> shared;
    private final Supplier<List<String>> allowedHosts;
    /** Derived from the shared client on the first fetch, so that a process that never fetches never makes one. */
    private OkHttpClient client;

    /**
     * @param shared       the shared client, asked for on the first fetch; this tool uses its connections with its
     *                     own timeouts and redirects
     * @param allowedHosts the hosts that may be contacted, read at every call; an empty list allows every host
     */
    public WebFetchTool(Supplier<OkHttpClient> shared, Supplier<List<String>> allowedHosts) {
        super(NAME,
                "Fetch a web page or other text document with an HTTP GET and return its text. Only http and https"
                + " URLs; redirects are followed. Responses that are not text are refused, and only the first "
                + MAX_BODY_BYTES + " bytes are returned.",
                PARAMETERS.schema(), ToolEffect.READ, DataClass.PUBLIC_CONTENT, "web");
        this.shared = Objects.requireNonNull(shared, "shared");
        this.allowedHosts = Objects.requireNonNull(allowedHosts, "allowedHosts");
    }

    private synchronized OkHttpClient client() {
        if (client == null) {
            client = shared.get().newBuilder()
                    .followRedirects(false)
                    .followSslRedirects(false)
                    .connectTimeout(TIMEOUT)
                    .readTimeout(TIMEOUT)
                    .writeTimeout(TIMEOUT)
                    .callTimeout(TIMEOUT)
                    .build();
        }
        return client;
    }

    @Override
    public boolean approvalByDefault() {
        return true;
    }

    @Override
    public ToolResult execute(ToolCallRequest request) {
        try {
            Set<String> hosts = hosts();
            return fetch(permitted(url(request), hosts), hosts);
        } catch (Refusal refusal) {
            return ToolResult.failure(refusal.getMessage());
        }
    }

    @Override
    public Optional<ToolPreview> preview(ToolCallRequest request) {
        String line;
        try {
            line = "GET " + permitted(url(request), hosts());
        } catch (Refusal refusal) {
            line = "this call will fail: " + refusal.getMessage();
        }
        return Optional.of(ToolPreview.clipped(List.of(line)));
    }

    private ToolResult fetch(HttpUrl first, Set<String> hosts) throws Refusal {
        HttpUrl url = first;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            try (Response response = get(url)) {
                if (!REDIRECTS.contains(response.code())) {
                    return answer(url, response);
                }
                String location = response.header("Location");
                HttpUrl next = location == null ? null : url.resolve(location);
                if (next == null) {
                    throw new Refusal("GET " + url + " returned HTTP " + response.code()
                            + " without a usable Location to follow");
                }
                url = permitted(next, hosts);
            }
        }
        throw new Refusal("GET " + first + " was redirected more than " + MAX_REDIRECTS + " times");
    }

    private Response get(HttpUrl url) throws Refusal {
        try {
            return client().newCall(new Request.Builder().url(url).get().build()).execute();
        } catch (IOException e) {
            throw new Refusal("GET " + url + " failed: " + reason(e));
        }
    }

    private static ToolResult answer(HttpUrl url, Response response) throws Refusal {
        if (!response.isSuccessful()) {
            String message = response.message().isBlank() ? "" : " " + response.message();
            return ToolResult.failure("GET " + url + " returned HTTP " + response.code() + message);
        }
        MediaType type = response.body().contentType();
        if (type == null) {
            return ToolResult.failure("GET " + url + " returned no content type; only text can be fetched");
        }
        if (!isText(type)) {
            return ToolResult.failure("GET " + url + " returned " + type.type() + "/" + type.subtype()
                    + ", which is not text");
        }
        byte[] bytes;
        try (InputStream body = response.body().byteStream()) {
            bytes = body.readNBytes(MAX_BODY_BYTES + 1);
        } catch (IOException e) {
            throw new Refusal("GET " + url + " failed while reading the response: " + reason(e));
        }
        boolean truncated = bytes.length > MAX_BODY_BYTES;
        String text = new String(bytes, 0, Math.min(bytes.length, MAX_BODY_BYTES),
                type.charset(StandardCharsets.UTF_8));
        String note = truncated
                ? "\n[the response is longer than " + MAX_BODY_BYTES + " bytes; only its beginning was read]"
                : "";
        return ToolResult.ok("GET " + url + ": HTTP " + response.code() + ", " + type + note + "\n\n" + text);
    }

    private static boolean isText(MediaType type) {
        String subtype = type.subtype();
        if (type.type().equals("text")) {
            return true;
        }
        return type.type().equals("application") && (subtype.equals("json") || subtype.equals("xml")
                || subtype.equals("javascript") || subtype.endsWith("+json") || subtype.endsWith("+xml"));
    }

    private static HttpUrl url(ToolCallRequest request) throws Refusal {
        String text = PARAMETERS.read(request.arguments()).required("url").strip();
        HttpUrl url = HttpUrl.parse(text);
        if (url != null) {
            return url;
        }
        Matcher scheme = SCHEME.matcher(text);
        if (scheme.find()) {
            String name = scheme.group(1).toLowerCase(Locale.ROOT);
            if (!name.equals("http") && !name.equals("https")) {
                throw new Refusal("only http and https URLs can be fetched, not " + name + " URLs");
            }
        }
        throw new Refusal("\"" + text + "\" is not a valid http or https URL");
    }

    private Set<String> hosts() {
        return allowedHosts.get().stream()
                .map(host -> host.strip().toLowerCase(Locale.ROOT))
                .filter(host -> !host.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }

    private static HttpUrl permitted(HttpUrl url, Set<String> hosts) throws Refusal {
        if (!hosts.isEmpty() && !hosts.contains(url.host())) {
            throw new Refusal("host \"" + url.host() + "\" of " + url + " is not on the allowed hosts list ("
                    + hosts.stream().sorted().collect(Collectors.joining(", ")) + ")");
        }
        return url;
    }

    private static String reason(IOException e) {
        // a read timeout and the whole call's timeout both arrive as an interrupted I/O
        if (e instanceof InterruptedIOException) {
            return "no answer within " + TIMEOUT.toSeconds() + " seconds";
        }
        if (e instanceof UnknownHostException) {
            return "unknown host";
        }
        if (e instanceof ConnectException) {
            return "the connection was refused";
        }
        return "the connection failed (" + e.getClass().getSimpleName() + ")";
    }
}
