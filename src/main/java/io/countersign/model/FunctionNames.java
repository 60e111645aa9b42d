package io.countersign.model;

import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The function names one request shows the provider for the tool names it mentions, and the way back for the calls
 * the model emits. OpenAI accepts only {@code ^[a-zA-Z0-9_-]+$} of at most {@value #MAX_LENGTH} characters, so a
 * remote tool such as {@code files.read_text_file} is offered as {@code files_read_text_file}; our names stay ours
 * everywhere else (cards, events, rules).
 *
 * <p>A name the provider accepts is sent as it is, so requests without such names do not change. Any other name
 * gets its disallowed characters replaced by {@code _}; when that form is taken by another name of the request, or
 * too long, a digest of the original name is appended, so two names never share a function name. The mapping
 * depends only on the set of names a request mentions (offered tools, earlier calls, the tool choice), not on their
 * order, so two processes send the same request.
 */
final class FunctionNames {
    /** What OpenAI documents for a function name. */
    static final Pattern ALLOWED = Pattern.compile("[a-zA-Z0-9_-]+");
    static final int MAX_LENGTH = 64;
    private static final int FIRST_DIGEST_LENGTH = 8;
    private static final int MAX_DIGEST_LENGTH = 32;

    private final Map<String, String> wireByName;
    private final Map<String, String> nameByWire;

    private FunctionNames(Map<String, String> wireByName) {
        this.wireByName = wireByName;
        this.nameByWire = new HashMap<>();
        wireByName.forEach((name, wire) -> nameByWire.put(wire, name));
    }

    /** The names of every tool the request offers, every call its transcript holds, and its tool choice. */
    static FunctionNames of(ChatRequest request) {
        Set<String> names = new LinkedHashSet<>();
        request.tools().stream().map(ToolSpec::name).forEach(names::add);
        for (ChatMessage message : request.messages()) {
            message.toolCalls().stream().map(ToolCall::name).forEach(names::add);
        }
        if (request.toolChoice() != null) {
            names.add(request.toolChoice());
        }
        return of(names);
    }

    static FunctionNames of(Set<String> names) {
        Map<String, String> wireByName = new HashMap<>();
        Set<String> taken = new HashSet<>();
        Set<String> others = new TreeSet<>();
        for (String name : names) {
            if (accepted(name)) {
                wireByName.put(name, name);
                taken.add(name);
            } else {
                others.add(name);
            }
        }
        Map<String, Integer> readableUses = new HashMap<>();
        others.forEach(name -> readableUses.merge(readable(name), 1, Integer::sum));
        for (String name : others) {
            String readable = readable(name);
            String wire = readable.length() <= MAX_LENGTH && readableUses.get(readable) == 1 && !taken.contains(readable)
                    ? readable : withDigest(name, readable, taken);
            wireByName.put(name, wire);
            taken.add(wire);
        }
        return new FunctionNames(wireByName);
    }

    /** Whether a provider takes this name as it is. */
    static boolean accepted(String name) {
        return name.length() <= MAX_LENGTH && ALLOWED.matcher(name).matches();
    }

    /** The function name for one of the request's tool names. */
    String wire(String name) {
        String wire = wireByName.get(name);
        if (wire == null) {
            throw new IllegalArgumentException("the request does not mention the tool \"" + name + "\"");
        }
        return wire;
    }

    /** Our name for a function name the model emitted; a name the request never offered stays as it came. */
    String name(String wire) {
        return nameByWire.getOrDefault(wire, wire);
    }

    private static String readable(String name) {
        String replaced = name.replaceAll("[^a-zA-Z0-9_-]", "_");
        return replaced.isEmpty() ? "_" : replaced;
    }

    private static String withDigest(String name, String readable, Set<String> taken) {
        String digest = HexFormat.of().formatHex(sha256(name));
        for (int length = FIRST_DIGEST_LENGTH; length <= MAX_DIGEST_LENGTH; length += FIRST_DIGEST_LENGTH) {
            String suffix = "_" + digest.substring(0, length);
            String wire = readable.substring(0, Math.min(readable.length(), MAX_LENGTH - suffix.length())) + suffix;
            if (!taken.contains(wire)) {
                return wire;
            }
        }
        throw new IllegalStateException("no free function name for the tool \"" + name + "\"");
    }

    private static byte[] sha256(String name) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
