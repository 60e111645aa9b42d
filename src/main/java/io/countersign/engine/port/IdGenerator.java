package io.countersign.engine.port;

import java.util.UUID;

/** Port: fresh identifiers for runs and events. */
@FunctionalInterface
public interface IdGenerator {

    String next();

    static IdGenerator random() {
        return () -> UUID.randomUUID().toString();
    }
}
