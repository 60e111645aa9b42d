package io.countersign.runtime;

import java.util.function.Supplier;
import okhttp3.OkHttpClient;

/**
 * The HTTP client the models and {@code web_fetch} share, made when one of them first needs it: making it
 * loads the trusted certificates and the client's classes (about 0.2 s of a console's start, which needs no
 * HTTP before the inbox shows).
 */
final class SharedHttpClient implements Supplier<OkHttpClient> {
    private OkHttpClient client;

    @Override
    public synchronized OkHttpClient get() {
        if (client == null) {
            client = new OkHttpClient();
        }
        return client;
    }

    synchronized void close() {
        if (client != null) {
            client.dispatcher().executorService().shutdown();
            client.connectionPool().evictAll();
        }
    }
}
