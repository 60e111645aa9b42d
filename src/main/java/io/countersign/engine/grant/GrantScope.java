package io.countersign.engine.grant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.chat.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which calls of its tool a standing grant covers: exactly the same arguments, or, for tools whose calls name a
 * file target, any call whose target lies in a folder of the workspace. A grant never widens itself: it is matched
 * on the call as it finally is (after any redirect or edit), on the target the rules resolved for it.
 */
public sealed interface GrantScope {

    /** Whether this scope covers the call, whose resolved target is {@code target} ({@code null} when none). */
    boolean covers(ToolCall call, ToolInvocationTarget target);

    /** The kind of scope, as the store and events name it: {@code arguments} or {@code folder}. */
    String kind();

    /** What the scope holds: the canonical arguments, or the folder. */
    String value();

    /** Exactly these arguments, in canonical form (keys sorted at every level, no spaces). */
    record SameArguments(String canonicalArguments) implements GrantScope {
        public SameArguments {
            Objects.requireNonNull(canonicalArguments, "canonicalArguments");
        }

        public static SameArguments of(ObjectNode arguments) {
            return new SameArguments(canonical(arguments).toString());
        }

        @Override
        public boolean covers(ToolCall call, ToolInvocationTarget target) {
            return canonical(call.arguments()).toString().equals(canonicalArguments);
        }

        @Override
        public String kind() {
            return "arguments";
        }

        @Override
        public String value() {
            return canonicalArguments;
        }
    }

    /**
     * Any call whose file target lies in this folder of the agent's workspace ({@code docs}, or {@code .} for all
     * of it), the target resolved as the {@code workspace.boundary} rule resolves it, links followed.
     */
    record Folder(String folder) implements GrantScope {
        public static final String FILE_TARGET = "file";

        public Folder {
            Objects.requireNonNull(folder, "folder");
            String trimmed = folder.strip();
            while (trimmed.endsWith("/") && trimmed.length() > 1) {
                trimmed = trimmed.substring(0, trimmed.length() - 1);
            }
            if (trimmed.isEmpty() || trimmed.startsWith("/") || trimmed.equals("..") || trimmed.startsWith("../")
                    || trimmed.contains("/../") || trimmed.endsWith("/..")) {
                throw new IllegalArgumentException("a grant's folder is a folder inside the workspace, such as"
                        + " \"docs\" or \".\", not \"" + folder + "\"");
            }
            folder = trimmed.startsWith("./") && trimmed.length() > 2 ? trimmed.substring(2) : trimmed;
        }

        @Override
        public boolean covers(ToolCall call, ToolInvocationTarget target) {
            if (target == null || !FILE_TARGET.equals(target.kind())) {
                return false;
            }
            String path = target.identifier();
            return folder.equals(".") ? !path.equals("..") && !path.startsWith("../")
                    : path.equals(folder) || path.startsWith(folder + "/");
        }

        @Override
        public String kind() {
            return "folder";
        }

        @Override
        public String value() {
            return folder;
        }
    }

    /**
     * The scope a store row names.
     *
     * @throws IllegalArgumentException for a kind there is not
     */
    static GrantScope of(String kind, String value) {
        return switch (kind) {
            case "arguments" -> new SameArguments(value);
            case "folder" -> new Folder(value);
            default -> throw new IllegalArgumentException("a grant's scope is \"arguments\" or \"folder\", not \""
                    + kind + "\"");
        };
    }

    /** The value with the keys of every object sorted, so that two equal argument objects print the same. */
    static JsonNode canonical(JsonNode value) {
        if (value.isObject()) {
            List<String> names = new ArrayList<>();
            value.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            ObjectNode sorted = JsonNodeFactory.instance.objectNode();
            names.forEach(name -> sorted.set(name, canonical(value.get(name))));
            return sorted;
        }
        if (value.isArray()) {
            ArrayNode items = JsonNodeFactory.instance.arrayNode();
            value.forEach(item -> items.add(canonical(item)));
            return items;
        }
        return value;
    }
}
