package io.countersign.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Actor;
import io.countersign.runtime.CountersignRuntime;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command under {@code countersign}: reaches the store, the acting user and the output through the root. */
abstract class Subcommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    CountersignCommand root() {
        return (CountersignCommand) spec.root().userObject();
    }

    CountersignRuntime runtime() {
        return root().runtime(runsTools());
    }

    /**
     * True for a command that runs agents' tools or governs them by name: its process imports the tools of the
     * enabled MCP servers, waiting for them before it acts. The others leave the servers alone.
     */
    boolean runsTools() {
        return false;
    }

    Actor actor() {
        return root().actor();
    }

    /** Prints the result in the chosen format and ends the command as done. */
    int print(JsonNode result) {
        root().output().print(result);
        return Cli.DONE;
    }

    /** Prints the result, with {@code table} as its table and CSV form, and ends the command as done. */
    int print(JsonNode result, Output.Table table) {
        root().output().print(result, table);
        return Cli.DONE;
    }
}
