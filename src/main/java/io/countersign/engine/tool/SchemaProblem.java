package io.countersign.engine.tool;

import java.util.List;
import java.util.Objects;

/**
 * One place where a value breaks its JSON Schema: the path to it from the arguments ({@code ["items", 0, "x"]},
 * empty for the arguments as a whole) and what is wrong there, worded for a person ({@code "must be a string"}).
 */
public record SchemaProblem(List<Object> path, String problem) {
    public SchemaProblem {
        path = List.copyOf(path);
        Objects.requireNonNull(problem, "problem");
    }

    /** The first step of the path: the argument or input field the problem is in; empty for the whole value. */
    public String field() {
        return path.isEmpty() ? "" : path.get(0).toString();
    }

    /** The sentence every caller shows: {@code argument "items[0].x": must be less than 3}. */
    public String sentence() {
        if (path.isEmpty()) {
            return "arguments: " + problem;
        }
        StringBuilder where = new StringBuilder(path.get(0).toString());
        for (Object step : path.subList(1, path.size())) {
            where.append(step instanceof Integer index ? "[" + index + "]" : "." + step);
        }
        return "argument \"" + where + "\": " + problem;
    }

    @Override
    public String toString() {
        return sentence();
    }
}
