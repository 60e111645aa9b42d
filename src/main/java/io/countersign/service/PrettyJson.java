package io.countersign.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Json;

/** Tool arguments as a person reads them on a card or a timeline: indented JSON. */
final class PrettyJson {
    private PrettyJson() {
    }

    static String of(JsonNode node) {
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            return node.toString();
        }
    }
}
