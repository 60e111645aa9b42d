package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.store.StoreCheck;
import picocli.CommandLine.Command;

/** {@code store check}: whether the store's file is whole. */
final class StoreCommands {

    private StoreCommands() {
    }

    @Command(name = "store", description = "The store itself.", subcommands = {Check.class})
    static final class StoreGroup extends Subcommand {
        @Override
        public Integer call() {
            throw CliFailure.usage("say what to do with the store: countersign store check");
        }
    }

    @Command(name = "check", description = "Check the store's SQLite file page by page and index by index (PRAGMA"
            + " integrity_check) and say what was found: exit 0 when whole, 5 when damaged (restore a backup). On"
            + " PostgreSQL the check does not apply: the server keeps its own files.")
    static final class Check extends Subcommand {
        @Override
        public Integer call() {
            StoreCheck check = runtime().store().check();
            ObjectNode view = Views.object().put("store", check.store()).put("applies", check.applies())
                    .put("whole", check.whole());
            Views.strings(view, "problems", check.problems());
            if (!check.applies()) {
                view.put("note", "the check does not apply to PostgreSQL: its server keeps and checks its own files");
            }
            print(view, Output.Table.of(view));
            if (check.whole()) {
                return Cli.DONE;
            }
            spec.commandLine().getErr().println("countersign: the store file " + check.store() + " is damaged ("
                    + check.problems().size() + (check.problems().size() == 1 ? " problem" : " problems")
                    + "); restore it from a backup");
            return Cli.DAMAGED;
        }
    }
}
