package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Asks the person behind a run for typed input while one of its calls is still open, as an MCP server's
 * elicitation does. Unlike an input pause nothing is stored: the call waits in this process for the answer, so a
 * question outlives neither the process nor the call. A run that cannot pause (unattended) is never asked; it
 * declines ({@link #DECLINE}). The values go back to the tool only, never into an event or a log.
 */
@FunctionalInterface
public interface InputPrompts {
    /** What a run answers when no one can be asked. */
    InputPrompts DECLINE = question -> new Answer.Declined(null, "no one can answer while this run goes on");

    /** A question not answered in this time is cancelled, so that the call it belongs to goes on. */
    Duration LONGEST_WAIT = Duration.ofMinutes(30);

    /** Blocks until the question is answered, declined or cancelled. */
    Answer ask(Question question);

    /**
     * What a tool asks during {@code call}: the server's {@code message} and the form's fields; no fields when the
     * form cannot be shown as typed fields, which the run declines without asking anyone.
     */
    record Question(ToolCallRequest call, String message, List<InputField> fields) {
        public Question {
            Objects.requireNonNull(call, "call");
            message = message == null ? "" : message;
            fields = List.copyOf(fields);
        }
    }

    /** A person's answer; {@code by} is null when no one answered. */
    sealed interface Answer {
        Actor by();

        /** The answer's name as MCP spells it: accept, decline, cancel. */
        String action();

        /** The values fit the fields (checked as an input pause checks them). */
        record Accepted(Actor by, ObjectNode values) implements Answer {
            public Accepted {
                Objects.requireNonNull(by, "by");
                values = values.deepCopy();
            }

            @Override
            public ObjectNode values() {
                return values.deepCopy();
            }

            @Override
            public String action() {
                return "accept";
            }

            @Override
            public String toString() {
                return "Accepted[by=" + by.name() + ", fields=" + values.size() + "]";
            }
        }

        /** The person (or, with {@code by} null, the run) would not give the values; {@code reason} says why. */
        record Declined(Actor by, String reason) implements Answer {
            @Override
            public String action() {
                return "decline";
            }
        }

        /** The question was dismissed without an answer, or waited too long. */
        record Cancelled(Actor by) implements Answer {
            @Override
            public String action() {
                return "cancel";
            }
        }
    }
}
