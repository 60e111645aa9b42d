package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.StreamSupport;

/**
 * What an older build printed of its store ({@code src/test/resources/upgrade/*-facts.json}, written by
 * {@code src/test/upgrade/make-fixtures.sh}: command line to output), read again with this build after it opened
 * the store. Every field and every value reads the same, but where {@link Today} states how it reads today.
 */
final class PrintedFacts {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SERVER_DECLARATION = "server_approval_bound:";

    private PrintedFacts() {
    }

    /** What this build prints beyond the middle build (362b033): new fields only, nothing renamed or dropped. */
    static Today middleBuild() {
        return new Today()
                // a card's call says its effect in words; for a local tool, that is its effect
                .added("inbox[].pending[]", "effectText", call -> call.path("effect"))
                .added("show.card.pending[]", "effectText", call -> call.path("effect"))
                // a server record lists the tools declared by themselves, which no older build could declare
                .added("servers[]", "toolDeclarations", server -> JSON.createObjectNode());
    }

    /**
     * What this build prints beyond the first release (0.1): the middle build's additions; a card's deadline, which
     * 0.1 had none of; a tool's server declaration, none for a local tool (0.1 listed only those: its one server
     * record is disabled); a server record's declaration in words, which 0.1 printed as {@code approvalBound} alone.
     */
    static Today firstRelease() {
        return middleBuild()
                .added("inbox[]", "deadline", card -> NullNode.getInstance())
                .added("show.card", "deadline", card -> NullNode.getInstance())
                .added("tools[]", "serverDeclaration", tool -> tool.path("server"))
                .added("servers[]", "declaration", server -> TextNode.valueOf(ApprovalDeclaration.of(
                        server.path("approvalBound").asBoolean()).plainWords()));
    }

    /**
     * Runs each printed command with this build and asserts that it prints the same; the differences are listed
     * together, each at its path ({@code show.transcript[3].kind}).
     */
    static void assertReadTheSame(String facts, Function<String[], CommandProcess.Result> countersign, Today today) {
        JsonNode printed = read(facts);
        List<String> differences = new ArrayList<>();
        printed.properties().forEach(fact -> {
            CommandProcess.Result now = countersign.apply(fact.getKey().split(" "));
            if (now.exitCode() != 0) {
                differences.add(fact.getKey() + ": exit " + now.exitCode() + ", " + now.err().strip());
            } else if (fact.getKey().contains("--format csv")) {
                compareCsv(fact.getKey(), fact.getValue().asText(), now.out(), differences);
            } else {
                compare(name(fact.getKey()), fact.getKey(), parse(fact.getValue().asText()), parse(now.out()), today,
                        differences);
            }
        });
        assertThat(differences).as("what " + facts + " holds, read with this build").isEmpty();
    }

    /**
     * Every server the older build declared is declared the same to this build, for any tool of it, naming who
     * declared it: each server record it printed ({@code servers}), and each declaration it made without a record,
     * which it printed only as the newest recorded change of {@code server_approval_bound:NAME} ({@code tools
     * changes}).
     */
    static void assertDeclarationsHold(String facts, Store store) {
        JsonNode printed = read(facts);
        Map<String, RemoteDeclaration> expected = new TreeMap<>();
        for (JsonNode server : parse(printed.path("servers").asText())) {
            expected.put(server.path("name").asText(), new RemoteDeclaration(
                    ApprovalDeclaration.of(server.path("approvalBound").asBoolean()), RemoteDeclaration.Source.SERVER,
                    null));
        }
        Map<String, JsonNode> newest = new LinkedHashMap<>();
        for (JsonNode change : parse(printed.path("tools changes --limit 1000").asText())) {
            String setting = change.path("setting").asText();
            if (setting.startsWith(SERVER_DECLARATION)) {
                newest.putIfAbsent(setting.substring(SERVER_DECLARATION.length()), change);
            }
        }
        newest.forEach((server, change) -> expected.put(server, new RemoteDeclaration(
                ApprovalDeclaration.of(Boolean.parseBoolean(change.path("newValue").asText())),
                RemoteDeclaration.Source.SERVER, change.path("actor").asText())));
        assertThat(expected).as("the servers " + facts + " declares").isNotEmpty();
        expected.forEach((server, declaration) -> assertThat(store.settings().declarationOf(server + ".any_tool",
                server)).as("the declaration of a tool of " + server).isEqualTo(declaration));
    }

    /**
     * {@code audit verify}, after {@link WaitingCards} answered both cards, passes over what this build wrote since
     * and says what it does not cover: the first release chained nothing, so the chain begins after its events (as
     * many as it printed) and its decisions (as many as its {@code show} listed).
     */
    static void assertTheChainBeginsAfter(String facts, CommandProcess.Result verified) {
        JsonNode report = verifiedReport(verified);
        assertThat(report.path("begins").asText()).as(report.toString()).matches("audit chain begins at entry 1, \\S+;"
                + " the " + events(facts) + " events and the decisions up to id " + decisions(facts)
                + " stored before it are not covered");
        assertThat(report.path("rowsChecked").asLong()).as(report.toString()).isEqualTo(WaitingCards.CHAINED_ROWS);
    }

    /**
     * {@code audit verify}, after {@link WaitingCards} answered both cards, passes over every event and decision:
     * the middle build chained each it wrote, so nothing is left uncovered.
     */
    static void assertTheChainCoversEverything(String facts, CommandProcess.Result verified) {
        JsonNode report = verifiedReport(verified);
        assertThat(report.path("begins").asText()).as(report.toString()).startsWith("audit chain begins at entry 1,")
                .doesNotContain("not covered");
        assertThat(report.path("rowsChecked").asLong()).as(report.toString())
                .isEqualTo(events(facts) + decisions(facts) + WaitingCards.CHAINED_ROWS);
    }

    private static JsonNode verifiedReport(CommandProcess.Result verified) {
        assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
        JsonNode report = verified.json();
        assertThat(report.path("verified").asBoolean()).as(report.toString()).isTrue();
        assertThat(report.path("findings")).as(report.toString()).isEmpty();
        return report;
    }

    /** The events the older build printed. */
    private static long events(String facts) {
        return csv(read(facts).path("events --all --format csv").asText()).size() - 1;
    }

    /** The decisions the older build listed with their runs. */
    private static long decisions(String facts) {
        JsonNode printed = read(facts);
        return commands(printed, "show").stream()
                .flatMap(show -> StreamSupport.stream(parse(printed.path(show).asText()).path("events").spliterator(),
                        false))
                .filter(event -> event.path("kind").asText().equals("decision")).count();
    }

    /** The commands of the facts that start with this word, such as every {@code show RUN}. */
    private static List<String> commands(JsonNode printed, String first) {
        List<String> commands = new ArrayList<>();
        printed.fieldNames().forEachRemaining(command -> {
            if (command.split(" ")[0].equals(first)) {
                commands.add(command);
            }
        });
        return commands;
    }

    /** A fact's name for {@link Today}: the command's words without options and the run id of a show. */
    private static String name(String command) {
        List<String> words = new ArrayList<>();
        for (String word : command.split(" ")) {
            if (word.startsWith("--") || !word.matches("[a-z]+")) {
                break;
            }
            words.add(word);
        }
        return String.join(" ", words);
    }

    private static void compare(String path, String where, JsonNode old, JsonNode now, Today today,
                                List<String> differences) {
        if (old.isObject() && now.isObject()) {
            TreeSet<String> expected = new TreeSet<>();
            old.fieldNames().forEachRemaining(expected::add);
            Map<String, Function<JsonNode, JsonNode>> added = today.added(path);
            expected.addAll(added.keySet());
            TreeSet<String> fields = new TreeSet<>();
            now.fieldNames().forEachRemaining(fields::add);
            if (!fields.equals(expected)) {
                differences.add(where + ": fields " + fields + ", expected " + expected);
            }
            old.properties().forEach(field -> compare(path + "." + field.getKey(), where + "." + field.getKey(),
                    field.getValue(), now.path(field.getKey()), today, differences));
            added.forEach((field, value) -> {
                JsonNode expectedValue = value.apply(old);
                if (!expectedValue.equals(now.path(field))) {
                    differences.add(where + "." + field + ": " + now.path(field) + ", expected " + expectedValue);
                }
            });
        } else if (old.isArray() && now.isArray()) {
            JsonNode items = today.withoutAddedItems(path, where, now, differences);
            if (old.size() != items.size()) {
                differences.add(where + ": " + items.size() + " items, expected " + old.size() + ": " + items);
                return;
            }
            for (int i = 0; i < old.size(); i++) {
                compare(path + "[]", where + "[" + i + "]", old.get(i), items.get(i), today, differences);
            }
        } else if (!old.equals(now)) {
            differences.add(where + ": " + now + ", expected " + old);
        }
    }

    /** The same columns, and the same events in the same order, each with the same values. */
    private static void compareCsv(String where, String old, String now, List<String> differences) {
        List<List<String>> before = csv(old);
        List<List<String>> after = csv(now);
        if (before.size() != after.size()) {
            differences.add(where + ": " + (after.size() - 1) + " events, expected " + (before.size() - 1));
            return;
        }
        for (int i = 0; i < before.size(); i++) {
            if (!before.get(i).equals(after.get(i))) {
                differences.add(where + " line " + (i + 1) + ": " + after.get(i) + ", expected " + before.get(i));
            }
        }
    }

    /** The records of a CSV text, its header first. */
    private static List<List<String>> csv(String text) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                record.add(field.toString());
                field.setLength(0);
            } else if (c == '\n') {
                record.add(field.toString());
                field.setLength(0);
                records.add(record);
                record = new ArrayList<>();
            } else if (c != '\r') {
                field.append(c);
            }
        }
        return records;
    }

    private static JsonNode read(String facts) {
        return parse(text(facts));
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(String name) {
        try (InputStream in = Objects.requireNonNull(PrintedFacts.class.getResourceAsStream("/upgrade/" + name),
                name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * How this build prints what an older one printed, where it reads differently: each field added since, at the
     * path of the object that holds it ({@code show.card.pending[]}), with the value it must have, which follows
     * from the fields the older build printed; each item this build adds to a list.
     */
    static final class Today {
        private final Map<String, Map<String, Function<JsonNode, JsonNode>>> added = new LinkedHashMap<>();
        private final Map<String, List<AddedItem>> items = new LinkedHashMap<>();

        /** An item of a list that this build adds: these fields with these values, and the fields named, with any. */
        private record AddedItem(JsonNode fields, List<String> withAnyValue) {
            boolean matches(JsonNode item) {
                TreeSet<String> names = new TreeSet<>(withAnyValue);
                fields.fieldNames().forEachRemaining(names::add);
                TreeSet<String> present = new TreeSet<>();
                item.fieldNames().forEachRemaining(present::add);
                return present.equals(names) && fields.properties().stream()
                        .allMatch(field -> field.getValue().equals(item.get(field.getKey())));
            }
        }

        /** A field this build prints and the older one did not, whose value follows from the object it printed. */
        Today added(String path, String field, Function<JsonNode, JsonNode> value) {
            added.computeIfAbsent(path, key -> new LinkedHashMap<>()).put(field, value);
            return this;
        }

        /**
         * An item this build adds to a list the older build printed (such as a change recorded since): these fields
         * with these values ({@code fields}, a JSON object), and the fields named, with whatever value.
         */
        Today addedItem(String path, String fields, String... withAnyValue) {
            items.computeIfAbsent(path, key -> new ArrayList<>()).add(new AddedItem(parse(fields),
                    List.of(withAnyValue)));
            return this;
        }

        private Map<String, Function<JsonNode, JsonNode>> added(String path) {
            return added.getOrDefault(path, Map.of());
        }

        /** The list without the items this build adds to it, each of which must be there once. */
        private JsonNode withoutAddedItems(String path, String where, JsonNode list, List<String> differences) {
            List<JsonNode> rest = new ArrayList<>();
            list.forEach(rest::add);
            for (AddedItem item : items.getOrDefault(path, List.of())) {
                List<JsonNode> matching = rest.stream().filter(item::matches).toList();
                if (matching.size() != 1) {
                    differences.add(where + ": " + matching.size() + " items " + item.fields() + ", expected 1");
                }
                rest.removeAll(matching);
            }
            return JSON.valueToTree(rest);
        }
    }
}
