package io.countersign.engine.declarative;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Names;
import io.countersign.engine.agent.ApprovalQuorum;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A rule an admin writes without Java: when its condition (a CEL expression over the call) is true for a call in
 * its scope, the call is refused ({@link Action.Deny}) or needs a person ({@link Action.Ask}).
 *
 * @param identifier the rule's code, {@code [a-z][a-z0-9_.-]*}, at most 64 characters, unique among all rules
 * @param condition  the CEL expression, true for the calls the rule acts on
 * @param action     what it does to them
 * @param scope      whose calls it sees
 * @param enabled    false keeps the rule stored but asks it nothing
 * @param note       why the admin saved it as it is (kept with the change, never evaluated); may be empty
 */
public record DeclarativeRule(String identifier, String condition, Action action, Scope scope, boolean enabled,
                              String note) {
    /** A condition longer than this is a program, not a rule. */
    public static final int MAX_CONDITION_LENGTH = 4000;
    /** An explanation is one sentence. */
    public static final int MAX_EXPLANATION_LENGTH = 300;

    public DeclarativeRule {
        Names.requireCode(identifier, "rule identifier");
        Objects.requireNonNull(condition, "condition");
        if (condition.isBlank()) {
            throw new IllegalArgumentException("rule " + identifier + " needs a condition (--when)");
        }
        if (condition.length() > MAX_CONDITION_LENGTH) {
            throw new IllegalArgumentException("the condition of rule " + identifier + " has " + condition.length()
                    + " characters, more than the " + MAX_CONDITION_LENGTH + " allowed");
        }
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(scope, "scope");
        note = note == null ? "" : note.strip();
    }

    /** What a rule does to a call its condition matches. */
    public sealed interface Action {
        /**
         * The call is refused with this reason code and explanation (one sentence; in German when the run's person
         * reads German and a German one is given, else in English).
         */
        record Deny(String reasonCode, String explanation, String explanationGerman) implements Action {
            public Deny {
                Names.requireCode(reasonCode, "reason code");
                explanation = sentence(explanation, "explanation (--explain)");
                if (explanation == null) {
                    throw new IllegalArgumentException("a deny rule needs a one-sentence explanation (--explain)"
                            + " for the person behind the run");
                }
                explanationGerman = sentence(explanationGerman, "German explanation (--explain-de)");
            }

            /** The explanation in the person's language: German for German, English otherwise. */
            public String explanation(java.util.Locale locale) {
                return explanationGerman != null && "de".equals(locale.getLanguage()) ? explanationGerman
                        : explanation;
            }
        }

        /** The call needs a person even when its tool runs without one, and this many of them to approve it. */
        record Ask(int approvals) implements Action {
            public Ask {
                if (approvals < 1 || approvals > ApprovalQuorum.MOST) {
                    throw new IllegalArgumentException("--approvals must be a whole number from 1 to "
                            + ApprovalQuorum.MOST + " (how many distinct people approve), got " + approvals);
                }
            }
        }
    }

    /**
     * Whose calls a rule sees: every agent's and every gateway profile's when both sets are empty; else only the
     * named agents' and the named profiles'.
     */
    public record Scope(Set<String> agents, Set<String> profiles) {
        public static final Scope ALL = new Scope(Set.of(), Set.of());

        public Scope {
            agents = Set.copyOf(new TreeSet<>(agents));
            profiles = Set.copyOf(new TreeSet<>(profiles));
        }

        public boolean all() {
            return agents.isEmpty() && profiles.isEmpty();
        }

        /** Whether a call of this agent, or of this gateway profile when {@code gateway}, is in scope. */
        public boolean covers(String configuration, boolean gateway) {
            return all() || (gateway ? profiles : agents).contains(configuration);
        }
    }

    public DeclarativeRule withEnabled(boolean value) {
        return new DeclarativeRule(identifier, condition, action, scope, value, note);
    }

    public DeclarativeRule withNote(String value) {
        return new DeclarativeRule(identifier, condition, action, scope, enabled, value);
    }

    /** The rule as a JSON object, the form it is stored and exported in. */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("id", identifier);
        node.put("when", condition);
        if (action instanceof Action.Deny deny) {
            node.put("action", "deny");
            node.put("reason", deny.reasonCode());
            node.put("explain", deny.explanation());
            if (deny.explanationGerman() != null) {
                node.put("explainDe", deny.explanationGerman());
            }
        } else {
            node.put("action", "ask");
            node.put("approvals", ((Action.Ask) action).approvals());
        }
        if (!scope.agents().isEmpty()) {
            ArrayNode agents = node.putArray("agents");
            new TreeSet<>(scope.agents()).forEach(agents::add);
        }
        if (!scope.profiles().isEmpty()) {
            ArrayNode profiles = node.putArray("profiles");
            new TreeSet<>(scope.profiles()).forEach(profiles::add);
        }
        node.put("enabled", enabled);
        if (!note.isEmpty()) {
            node.put("note", note);
        }
        return node;
    }

    /**
     * Reads a rule from its JSON object.
     *
     * @throws IllegalArgumentException naming the field that is missing or wrong
     */
    public static DeclarativeRule fromJson(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("a rule is a JSON object with id, when and action, got " + node);
        }
        String id = text(node, "id", true);
        String action = text(node, "action", true);
        Action parsed = switch (action) {
            case "deny" -> new Action.Deny(text(node, "reason", true), text(node, "explain", true),
                    text(node, "explainDe", false));
            case "ask" -> new Action.Ask(node.path("approvals").isMissingNode() ? 1 : whole(node, "approvals"));
            default -> throw new IllegalArgumentException("rule " + id + ": action must be deny or ask, got \""
                    + action + "\"");
        };
        return new DeclarativeRule(id, text(node, "when", true), parsed,
                new Scope(codes(node, "agents"), codes(node, "profiles")),
                !node.has("enabled") || node.get("enabled").asBoolean(true), text(node, "note", false));
    }

    private static String text(JsonNode node, String field, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw new IllegalArgumentException("a rule needs the field \"" + field + "\"");
            }
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException("the rule field \"" + field + "\" must be text, got " + value);
        }
        return value.asText();
    }

    private static int whole(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new IllegalArgumentException("the rule field \"" + field + "\" must be a whole number, got "
                    + value);
        }
        return value.intValue();
    }

    private static Set<String> codes(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Set.of();
        }
        if (!value.isArray()) {
            throw new IllegalArgumentException("the rule field \"" + field + "\" must be a list of names, got "
                    + value);
        }
        Set<String> names = new TreeSet<>();
        for (Iterator<JsonNode> items = value.elements(); items.hasNext(); ) {
            JsonNode item = items.next();
            names.add(Names.requireCode(item.asText(), field.substring(0, field.length() - 1) + " name"));
        }
        return names;
    }

    private static String sentence(String text, String what) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String stripped = text.strip();
        if (stripped.length() > MAX_EXPLANATION_LENGTH || stripped.contains("\n")) {
            throw new IllegalArgumentException("the " + what + " is one sentence on one line, at most "
                    + MAX_EXPLANATION_LENGTH + " characters");
        }
        return stripped;
    }

    /** The names of a comma-separated option, such as {@code --agents a,b}. */
    public static Set<String> names(List<String> given, String what) {
        Set<String> names = new TreeSet<>();
        for (String each : given) {
            for (String name : each.split(",")) {
                if (!name.isBlank()) {
                    names.add(Names.requireCode(name.strip(), what));
                }
            }
        }
        return names;
    }
}
