package io.countersign.engine;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The process's one general-purpose JSON mapper, made when something first reads or writes JSON text. Making a
 * mapper loads a few hundred classes (0.25 s and more of a cold start), which a console start does not need before
 * its inbox shows; building JSON trees needs only {@code JsonNodeFactory}. The mapper is never configured after it
 * is made, so it is safe to share between threads.
 */
public final class Json {
    private Json() {
    }

    /** The shared mapper, with Jackson's defaults. */
    public static ObjectMapper mapper() {
        return Made.MAPPER;
    }

    /** Holds the mapper, so that it is made on the first call of {@link #mapper()}, not when the class loads. */
    private static final class Made {
        private static final ObjectMapper MAPPER = new ObjectMapper();
    }
}
