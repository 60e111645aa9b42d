package io.countersign.engine.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import java.util.Objects;

/** A person's typed values for an input pause. The values are never written to an event or a log. */
public record InputSubmission(Actor submittedBy, ObjectNode values) {
    public InputSubmission {
        Objects.requireNonNull(submittedBy, "submittedBy");
        Objects.requireNonNull(values, "values");
        values = values.deepCopy();
    }

    @Override
    public ObjectNode values() {
        return values.deepCopy();
    }

    @Override
    public String toString() {
        return "InputSubmission[submittedBy=" + submittedBy.name() + ", fields=" + values.size() + "]";
    }
}
