package io.countersign.engine.tool;

import java.util.List;

/**
 * A tool that needs typed input from a person: the loop pauses the turn until the input is submitted, and
 * the person's values replace the model's for the declared fields. Such a tool may not also need approval.
 */
public interface RequiresInput extends Tool {

    /** The fields the person fills, in the order the form shows them; never empty. */
    List<InputField> inputFields();
}
