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
        return root().runtime(work());
    }

    /**
     * What this command's process does with the store: by default it reads, or changes settings, users and
     * agents, so it registers nothing, recovers no run and connects no MCP server. Commands that govern tools by
     * name, carry out decisions or run agents say so.
     */
    CountersignRuntime.Work work() {
        return CountersignRuntime.Work.ADMINISTER;
    }

    Actor actor() {
        return root().actor(work());
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
