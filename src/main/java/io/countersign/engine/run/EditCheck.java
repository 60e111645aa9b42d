package io.countersign.engine.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.ToolInvocationTarget;
import java.util.List;
import java.util.Objects;

/**
 * What the loop makes of a person's arguments for a waiting call, before anything is decided: they fit, with the
 * preview and the target of the call as edited; they do not fit the call or its tool; or a pre-approval rule
 * refuses them, with its explanation for the card.
 */
public sealed interface EditCheck {

    /** The arguments fit; {@code preview} is what the call would do with them (empty when the tool says nothing). */
    record Fits(int index, ObjectNode arguments, List<String> preview, ToolInvocationTarget target)
            implements EditCheck {
        public Fits {
            Objects.requireNonNull(arguments, "arguments");
            arguments = arguments.deepCopy();
            preview = preview == null ? List.of() : List.copyOf(preview);
        }

        @Override
        public ObjectNode arguments() {
            return arguments.deepCopy();
        }
    }

    /** The arguments cannot be the call's: {@code problem} says why, naming the property. */
    record Invalid(int index, String problem) implements EditCheck {
    }

    /** A pre-approval rule refuses the call as edited; nothing is decided. */
    record Refused(int index, String ruleIdentifier, String reasonCode, String explanation) implements EditCheck {
    }
}
