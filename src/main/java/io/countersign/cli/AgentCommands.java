package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.service.AgentImport;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code agents}, {@code agents import FILE}, {@code agents export FILE}. */
final class AgentCommands {

    private AgentCommands() {
    }

    @Command(name = "agents", description = "List the agent configurations a run can be started with.",
            subcommands = {Import.class, Export.class})
    static final class Agents extends Subcommand {
        @Override
        public Integer call() {
            ArrayNode agents = Views.array();
            runtime().runs().agents(actor()).forEach(agent -> agents.add(Views.agent(agent)));
            return print(agents);
        }
    }

    @Command(name = "import", description = "Load model and agent configurations from a JSON file into the store:"
            + " all of them, or nothing when any entry is wrong. Admins only.")
    static final class Import extends Subcommand {
        @Parameters(paramLabel = "FILE", description = "A JSON object with \"models\" and \"agents\" arrays.")
        Path file;

        @Override
        public Integer call() {
            return print(names(runtime().agents().importFile(actor(), file)));
        }
    }

    @Command(name = "export", description = "Write every model and agent configuration to a JSON file in the"
            + " import format (\"-\" writes to standard output). Admins only.")
    static final class Export extends Subcommand {
        @Parameters(paramLabel = "FILE", description = "The file to write, or - for standard output.")
        Path file;

        @Override
        public Integer call() {
            if (file.toString().equals("-")) {
                spec.commandLine().getOut().print(runtime().agents().exportJson(actor()));
                spec.commandLine().getOut().flush();
                return Cli.DONE;
            }
            return print(names(runtime().agents().exportFile(actor(), file)));
        }
    }

    private static ObjectNode names(AgentImport configurations) {
        ObjectNode node = Views.object();
        Views.strings(node, "models", configurations.models());
        Views.strings(node, "agents", configurations.agents());
        return node;
    }
}
