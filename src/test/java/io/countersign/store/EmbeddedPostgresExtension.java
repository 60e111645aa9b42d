package io.countersign.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a real PostgreSQL, started once per JVM (about two seconds) and stopped when the test run ends.
 * Declare a parameter of type {@link EmbeddedPostgres}.
 */
public final class EmbeddedPostgresExtension implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == EmbeddedPostgres.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(Server.class, key -> Server.start(), Server.class).postgres();
    }

    /** The running server; the root store closes it after the last test. */
    private record Server(EmbeddedPostgres postgres) implements AutoCloseable {
        static Server start() {
            try {
                // A throwaway server: durability costs time and proves nothing here.
                return new Server(EmbeddedPostgres.builder()
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off")
                        .start());
            } catch (IOException e) {
                throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
            }
        }

        @Override
        public void close() throws IOException {
            postgres.close();
        }
    }
}
