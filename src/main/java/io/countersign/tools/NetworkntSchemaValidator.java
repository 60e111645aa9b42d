package io.countersign.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.path.NodePath;
import io.countersign.engine.tool.SchemaProblem;
import io.countersign.engine.tool.SchemaValidator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The engine's {@link SchemaValidator} on the networknt validator (JSON Schema 2020-12 unless a schema names draft
 * 2019-09, 7, 6 or 4). Each schema is compiled once and kept, keyed by its content: a tool's schema is checked at
 * every call. {@code $ref} resolves within the schema only; nothing is fetched. Formats are asserted ({@code date},
 * {@code date-time}, {@code uri}, {@code uuid}, …), except {@code email} and {@code idn-email}: the library holds
 * an address to the public top-level domains, and an intranet address such as {@code ops@corp.internal} must pass.
 */
public final class NetworkntSchemaValidator implements SchemaValidator {
    /** Tools' schemas and the forms asked for are few; the bound only keeps a stream of one-off forms in check. */
    private static final int KEPT_SCHEMAS = 512;
    private static final int SHOWN_VALUE_CHARACTERS = 40;

    /** Built on the first schema compiled: a command that checks no call loads none of the dialects' classes. */
    private SchemaRegistry registry;
    private final Map<JsonNode, Optional<Schema>> compiled = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<JsonNode, Optional<Schema>> eldest) {
            return size() > KEPT_SCHEMAS;
        }
    };

    /** Asked only for a schema not compiled yet. */
    private synchronized SchemaRegistry registry() {
        if (registry == null) {
            // the first is the dialect of a schema that names none
            List<Dialect> dialects = Stream.of(Dialects.getDraft202012(), Dialects.getDraft201909(),
                    Dialects.getDraft7(), Dialects.getDraft6(), Dialects.getDraft4())
                    .map(NetworkntSchemaValidator::lenientMail).toList();
            registry = SchemaRegistry.withDialects(dialects, builder -> builder
                    .schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build())
                    .schemaLoader(loader -> loader.fetchRemoteResources(false)));
        }
        return registry;
    }

    /** The dialect without its mail address formats, which a value then passes whatever it holds. */
    private static Dialect lenientMail(Dialect dialect) {
        return Dialect.builder(dialect).formats(formats -> {
            formats.remove("email");
            formats.remove("idn-email");
        }).build();
    }

    @Override
    public List<SchemaProblem> problems(ObjectNode schema, JsonNode value) {
        if (schema == null) {
            return List.of();
        }
        Optional<Schema> checked = compiledOf(schema);
        if (checked.isEmpty()) {
            return List.of();
        }
        List<Error> errors;
        try {
            errors = checked.get().validate(value);
        } catch (SchemaException e) {
            // a reference the schema cannot resolve is left to the tool, like a schema that cannot be read
            return List.of();
        }
        List<SchemaProblem> problems = new ArrayList<>(errors.size());
        for (Error error : errors) {
            problems.add(new SchemaProblem(path(error), wording(error)));
        }
        return problems;
    }

    /** The schema compiled, or empty when the validator cannot read it (the tool then checks its arguments). */
    private Optional<Schema> compiledOf(ObjectNode schema) {
        synchronized (compiled) {
            Optional<Schema> known = compiled.get(schema);
            if (known != null) {
                return known;
            }
        }
        Optional<Schema> made;
        try {
            made = Optional.of(registry().getSchema(schema));
        } catch (SchemaException e) {
            made = Optional.empty();
        }
        synchronized (compiled) {
            // a copy as the key: the caller may change its schema after this call
            compiled.put(schema.deepCopy(), made);
        }
        return made;
    }

    private static List<Object> path(Error error) {
        NodePath location = error.getInstanceLocation();
        List<Object> path = new ArrayList<>();
        for (int i = 0; i < location.getNameCount(); i++) {
            path.add(location.getElement(i));
        }
        // a missing or unexpected property is reported at its parent; the person needs the property itself
        if (error.getProperty() != null && ("required".equals(error.getKeyword())
                || "additionalProperties".equals(error.getKeyword())
                || "unevaluatedProperties".equals(error.getKeyword()))) {
            path.add(error.getProperty());
        }
        return path;
    }

    private static String wording(Error error) {
        Object[] arguments = error.getArguments() == null ? new Object[0] : error.getArguments();
        Object first = arguments.length > 0 ? arguments[0] : "";
        JsonNode rule = error.getSchemaNode();
        return switch (error.getKeyword()) {
            case "type" -> "must be " + typeNames(rule) + ", got " + shown(error.getInstanceNode());
            case "required" -> "is required";
            case "additionalProperties", "unevaluatedProperties" -> "is not allowed: the schema has no such property";
            case "enum" -> "must be one of " + choices(rule);
            case "const" -> "must be " + rule;
            case "minimum" -> "must be at least " + first;
            case "maximum" -> "must be at most " + first;
            case "exclusiveMinimum" -> "must be more than " + first;
            case "exclusiveMaximum" -> "must be less than " + first;
            case "multipleOf" -> "must be a multiple of " + first;
            case "minLength" -> "must have at least " + first + " characters";
            case "maxLength" -> "must have at most " + first + " characters";
            case "pattern" -> "must match the pattern " + first;
            case "format" -> "must be a valid " + first + ", got " + shown(error.getInstanceNode());
            case "minItems" -> "must have at least " + first + " items";
            case "maxItems" -> "must have at most " + first + " items";
            case "uniqueItems" -> "must not repeat an item";
            case "minProperties" -> "must have at least " + first + " properties";
            case "maxProperties" -> "must have at most " + first + " properties";
            case "oneOf" -> "must match exactly one of the schema's alternatives, and matches " + first;
            case "anyOf" -> "must match at least one of the schema's alternatives";
            case "not" -> "must not match the schema it is excluded by";
            // the library's own words, which never hold a class name or the value's location
            default -> error.getMessage();
        };
    }

    private static String typeNames(JsonNode type) {
        if (type != null && type.isArray()) {
            return StreamSupport.stream(type.spliterator(), false).map(t -> typeName(t.asText()))
                    .collect(Collectors.joining(" or "));
        }
        return typeName(type == null ? "" : type.asText());
    }

    private static String typeName(String type) {
        return switch (type) {
            case "object" -> "an object";
            case "array" -> "an array";
            case "string" -> "a string";
            case "integer" -> "an integer";
            case "number" -> "a number";
            case "boolean" -> "true or false";
            default -> type;
        };
    }

    private static String choices(JsonNode allowed) {
        if (allowed == null || !allowed.isArray()) {
            return String.valueOf(allowed);
        }
        return StreamSupport.stream(allowed.spliterator(), false).map(JsonNode::toString)
                .collect(Collectors.joining(", "));
    }

    /** The value as JSON when it is short, so a person sees what they typed; else only what kind it is. */
    private static String shown(JsonNode value) {
        if (value == null) {
            return "nothing";
        }
        String json = value.toString();
        if (json.length() <= SHOWN_VALUE_CHARACTERS && !value.isContainerNode()) {
            return json;
        }
        return value.isObject() ? "an object" : value.isArray() ? "an array" : value.isTextual() ? "a long string"
                : "a long number";
    }
}
