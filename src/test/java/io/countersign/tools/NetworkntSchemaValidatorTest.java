package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.SchemaProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one validator's sentences: the path to the value and what is wrong there, never the library's own terms. */
class NetworkntSchemaValidatorTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final NetworkntSchemaValidator validator = new NetworkntSchemaValidator();

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private List<String> sentences(String schema, String value) {
        return validator.problems(json(schema), json(value)).stream().map(SchemaProblem::sentence).toList();
    }

    @Test
    void aProblemDeepInsideNamesItsPathFromTheArguments() {
        String schema = """
                {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "object",
                 "properties": {"x": {"type": "number", "exclusiveMaximum": 3}}, "required": ["x"]}}}}""";

        assertThat(sentences(schema, "{\"items\": [{\"x\": 5}, {}]}")).containsExactly(
                "argument \"items[0].x\": must be less than 3", "argument \"items[1].x\": is required");
    }

    @Test
    void anUnknownPropertyOfAClosedSchemaIsNamed() {
        assertThat(sentences("{\"type\": \"object\", \"additionalProperties\": false}", "{\"colour\": 1}"))
                .containsExactly("argument \"colour\": is not allowed: the schema has no such property");
    }

    @Test
    void argumentsThatAreNoObjectAreNamedAsAWhole() {
        assertThat(validator.problems(json("{\"type\": \"object\"}"), JSON.createArrayNode()))
                .extracting(SchemaProblem::sentence).containsExactly("arguments: must be an object, got an array");
    }

    @Test
    void aLongValueIsNotEchoed() {
        assertThat(sentences("{\"properties\": {\"n\": {\"type\": \"integer\"}}}",
                "{\"n\": \"" + "x".repeat(200) + "\"}")).containsExactly("argument \"n\": must be an integer,"
                + " got a long string");
    }

    @Test
    void anIntranetMailAddressPassesWhileOtherFormatsAreHeldToTheirStandard() {
        String schema = "{\"properties\": {\"to\": {\"type\": \"string\", \"format\": \"email\"},"
                + " \"at\": {\"type\": \"string\", \"format\": \"date-time\"}}}";

        assertThat(sentences(schema, "{\"to\": \"ops@corp.internal\", \"at\": \"2026-12-06T10:00:00Z\"}")).isEmpty();
        assertThat(sentences(schema, "{\"at\": \"tomorrow\"}"))
                .containsExactly("argument \"at\": must be a valid date-time, got \"tomorrow\"");
    }

    @Test
    void aSchemaOfAnOlderDraftIsHeldToTheSameFormats() {
        String schema = "{\"$schema\": \"http://json-schema.org/draft-07/schema#\", \"properties\": {"
                + "\"to\": {\"type\": \"string\", \"format\": \"email\"},"
                + " \"on\": {\"type\": \"string\", \"format\": \"date\"}}}";

        assertThat(sentences(schema, "{\"to\": \"ops@corp.internal\", \"on\": \"2026-02-30\"}"))
                .containsExactly("argument \"on\": must be a valid date, got \"2026-02-30\"");
    }

    @Test
    void aSchemaTheValidatorCannotReadIsLeftToTheToolAndNothingIsFetched() {
        assertThat(sentences("{\"properties\": {\"a\": {\"type\": \"string\", \"pattern\": \"(\"}}}",
                "{\"a\": 1}")).isEmpty();
        assertThat(sentences("{\"properties\": {\"a\": {\"$ref\": \"https://schemas.invalid/a.json\"}}}",
                "{\"a\": 1}")).isEmpty();
        assertThat(sentences("{\"properties\": {\"a\": {\"$ref\": \"#/$defs/missing\"}}}", "{\"a\": 1}")).isEmpty();
    }

    @Test
    void aSchemaChangedByItsCallerAfterACheckIsCheckedAsItIsNow() {
        ObjectNode schema = json("{\"properties\": {\"n\": {\"type\": \"integer\", \"maximum\": 3}}}");
        assertThat(validator.problems(schema, json("{\"n\": 5}"))).hasSize(1);

        ((ObjectNode) schema.get("properties").get("n")).put("maximum", 9);

        assertThat(validator.problems(schema, json("{\"n\": 5}"))).isEmpty();
    }
}
