package io.countersign.engine.port;

import io.countersign.engine.Names;

/** A model provider failed, or answered something that is not a valid turn. */
public class ModelException extends Exception {
    private final String reasonCode;

    /**
     * @param reasonCode a stable code for the failure, such as {@code provider_failed}, {@code timeout} or
     *                   {@code malformed_response}
     * @param message    what happened, for a person; never credentials or the request body
     */
    public ModelException(String reasonCode, String message) {
        super(message);
        this.reasonCode = Names.requireCode(reasonCode, "model failure code");
    }

    public ModelException(String reasonCode, String message, Throwable cause) {
        super(message, cause);
        this.reasonCode = Names.requireCode(reasonCode, "model failure code");
    }

    public String reasonCode() {
        return reasonCode;
    }
}
