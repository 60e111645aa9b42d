package io.countersign.console.denials;

/**
 * One line of the detail pane: a label and the event's value for it.
 *
 * @param code whether the value is a code or a name, shown in the monospace face
 */
public record EventField(String label, String value, boolean code) {
}
