package io.countersign.engine.tool;

import java.util.List;
import java.util.stream.Collectors;

/** A person's typed input does not fit the fields; nothing was executed and the run still waits. */
public class InvalidInputException extends RuntimeException {
    private final transient List<InputValidation.FieldError> errors;

    public InvalidInputException(List<InputValidation.FieldError> errors) {
        super("the input is not valid: " + errors.stream().map(InputValidation.FieldError::message)
                .collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    public List<InputValidation.FieldError> errors() {
        return errors;
    }
}
