package io.countersign.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.service.EventCsv;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Prints a command's result as JSON (the full result), a table for people, or CSV for spreadsheets. */
final class Output {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_CELL = 60;

    /** The output formats. */
    enum Format {
        JSON, TABLE, CSV
    }

    /** Rows of text under named columns. */
    record Table(List<String> columns, List<List<String>> rows) {
        Table {
            columns = List.copyOf(columns);
            rows = rows.stream().map(List::copyOf).toList();
        }

        /**
         * The default projection of a result: one row per element of an array (one row for an object), one column
         * per field; lists of plain values are joined with commas, deeper values appear as compact JSON.
         */
        static Table of(JsonNode result) {
            List<JsonNode> items = new ArrayList<>();
            if (result.isArray()) {
                result.forEach(items::add);
            } else {
                items.add(result);
            }
            Set<String> columns = new LinkedHashSet<>();
            items.forEach(item -> item.fieldNames().forEachRemaining(columns::add));
            List<List<String>> rows = items.stream().map(item -> columns.stream()
                    .map(column -> text(item.get(column))).toList()).toList();
            return new Table(new ArrayList<>(columns), rows);
        }

        static String text(JsonNode value) {
            if (value == null || value.isNull() || value.isMissingNode()) {
                return "";
            }
            if (value.isValueNode()) {
                return value.asText();
            }
            List<String> scalars = new ArrayList<>();
            if (value.isArray()) {
                value.forEach(item -> scalars.add(item.isValueNode() ? item.asText() : null));
            }
            // A list of names reads as one; anything deeper stays JSON.
            return value.isArray() && !scalars.contains(null) ? String.join(", ", scalars) : value.toString();
        }
    }

    private final Format format;
    private final PrintWriter out;

    Output(Format format, PrintWriter out) {
        this.format = format;
        this.out = out;
    }

    void print(JsonNode result) {
        print(result, format == Format.JSON ? null : Table.of(result));
    }

    void print(JsonNode result, Table table) {
        switch (format) {
            case JSON -> out.println(pretty(result));
            case CSV -> {
                out.println(EventCsv.line(table.columns()));
                table.rows().forEach(row -> out.println(EventCsv.line(row)));
            }
            case TABLE -> printTable(table);
        }
        out.flush();
    }

    private void printTable(Table table) {
        List<List<String>> cells = new ArrayList<>();
        cells.add(table.columns());
        table.rows().forEach(row -> cells.add(row.stream().map(Output::cell).toList()));
        int[] widths = new int[table.columns().size()];
        for (List<String> row : cells) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : cells) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(i == row.size() - 1 ? row.get(i) : String.format("%-" + widths[i] + "s  ", row.get(i)));
            }
            out.println(line.toString().stripTrailing());
        }
    }

    /** A table cell: one line, cut to a width a terminal can show. */
    private static String cell(String text) {
        String flat = text.replaceAll("\\s*\\R\\s*", " ⏎ ");
        return flat.length() <= MAX_CELL ? flat : flat.substring(0, MAX_CELL - 1) + "…";
    }

    static String pretty(JsonNode node) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a result did not turn into JSON", e);
        }
    }
}
