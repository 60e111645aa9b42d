package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * Checks a JSON value against a JSON Schema: a model's arguments, a person's edit of them, a person's typed input
 * and their answer to a server's question all go through the one implementation, so each is refused with the same
 * sentence. A schema the validator cannot read is left to the tool: it finds no problem.
 */
public interface SchemaValidator {
    /** Every problem of {@code value}, in the order the schema finds them; empty when it fits. */
    List<SchemaProblem> problems(ObjectNode schema, JsonNode value);

    /** The first problem of {@code value}, or empty when it fits. */
    default Optional<SchemaProblem> firstProblem(ObjectNode schema, JsonNode value) {
        return problems(schema, value).stream().findFirst();
    }
}
