package io.countersign.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Pattern;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A chat-completions server that checks every function name of a request the way the OpenAI API does
 * ({@code ^[a-zA-Z0-9_-]+$}, at most 64 characters: in the offered tools, in the transcript's calls and in the tool
 * choice) and refuses a bad one with the API's 400 answer; a request that passes gets the next queued answer.
 */
final class OpenAiFunctionNameRules extends Dispatcher {
    static final String PATTERN = "^[a-zA-Z0-9_-]+$";
    static final int MAX_LENGTH = 64;
    private static final Pattern ALLOWED = Pattern.compile(PATTERN);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ConcurrentLinkedQueue<MockResponse> answers = new ConcurrentLinkedQueue<>();
    final List<JsonNode> accepted = Collections.synchronizedList(new ArrayList<>());

    void enqueue(MockResponse answer) {
        answers.add(answer);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        JsonNode body;
        try {
            body = JSON.readTree(request.getBody().utf8());
        } catch (IOException e) {
            throw new AssertionError("the request body is not JSON", e);
        }
        Optional<MockResponse> refusal = refusal(body);
        if (refusal.isPresent()) {
            return refusal.get();
        }
        accepted.add(body);
        MockResponse answer = answers.poll();
        if (answer == null) {
            throw new AssertionError("no answer queued for " + body);
        }
        return answer;
    }

    /** The API's answer to the first bad function name of a request body, if it has one. */
    static Optional<MockResponse> refusal(JsonNode body) {
        List<String[]> names = new ArrayList<>();
        JsonNode tools = body.path("tools");
        for (int i = 0; i < tools.size(); i++) {
            names.add(new String[] {"tools[" + i + "].function.name", tools.get(i).path("function").path("name")
                    .asText()});
        }
        JsonNode messages = body.path("messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode calls = messages.get(i).path("tool_calls");
            for (int j = 0; j < calls.size(); j++) {
                names.add(new String[] {"messages[" + i + "].tool_calls[" + j + "].function.name",
                        calls.get(j).path("function").path("name").asText()});
            }
        }
        if (body.path("tool_choice").isObject()) {
            names.add(new String[] {"tool_choice.function.name", body.path("tool_choice").path("function")
                    .path("name").asText()});
        }
        for (String[] named : names) {
            String param = named[0];
            String name = named[1];
            if (name.length() > MAX_LENGTH) {
                return Optional.of(invalid(param, "string too long. Expected a string with maximum length "
                        + MAX_LENGTH + ", but got a string with length " + name.length() + " instead.",
                        "string_above_max_length"));
            }
            if (!ALLOWED.matcher(name).matches()) {
                return Optional.of(invalid(param, "string does not match pattern. Expected a string that matches"
                        + " the pattern '" + PATTERN + "'.", "invalid_value"));
            }
        }
        return Optional.empty();
    }

    private static MockResponse invalid(String param, String problem, String code) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("error").put("message", "Invalid '" + param + "': " + problem)
                .put("type", "invalid_request_error").put("param", param).put("code", code);
        return new MockResponse.Builder().code(400).addHeader("Content-Type", "application/json")
                .body(root.toPrettyString()).build();
    }
}
