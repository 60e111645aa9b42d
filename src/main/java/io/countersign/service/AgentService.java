package io.countersign.service;

import io.countersign.engine.Actor;
import java.nio.file.Path;

/**
 * Agent and model configurations to and from JSON files: an object with {@code models: [...]} and
 * {@code agents: [...]}, the agents' {@code toolCallPolicies} in the declarative format of
 * {@link io.countersign.engine.intent.ToolCallPolicies}. An import is checked whole before anything is saved and then
 * saved in one transaction: all of it, or nothing. Admins only.
 */
public interface AgentService {

    /**
     * Saves the configurations the JSON text holds, replacing those of the same names.
     *
     * @throws ConfigurationException naming every entry and field that is wrong; nothing was saved
     */
    AgentImport importJson(Actor actor, String json);

    /**
     * Saves the configurations of a file, as {@link #importJson} does.
     *
     * @throws java.io.UncheckedIOException when the file cannot be read
     */
    AgentImport importFile(Actor actor, Path file);

    /** Every model and agent configuration of the store, in the import format. */
    String exportJson(Actor actor);

    /**
     * Writes {@link #exportJson} to a file, replacing it whole (written beside it first, then moved).
     *
     * @throws java.io.UncheckedIOException when the file cannot be written
     */
    AgentImport exportFile(Actor actor, Path file);
}
