package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The tree a command line gets: the command it names, or all of them. */
class CommandTreeTest {
    @Test
    void eachCommandIsListedUnderItsOwnName() {
        for (Map.Entry<String, Class<?>> command : CommandTree.COMMANDS.entrySet()) {
            assertThat(command.getValue().getAnnotation(Command.class).name()).isEqualTo(command.getKey());
        }
    }

    @Test
    void theCommandNameComesAfterTheRootOptionsAndTheirValues() {
        assertThat(CommandTree.commandName(new String[] {"inbox"})).isEqualTo("inbox");
        assertThat(CommandTree.commandName(new String[] {"--store", "inbox", "decide", "R"})).isEqualTo("decide");
        assertThat(CommandTree.commandName(new String[] {"--store=s.db", "--format", "table", "--as", "maria",
            "tool", "set"})).isEqualTo("tool");
        assertThat(CommandTree.commandName(new String[] {"--help"})).isNull();
        assertThat(CommandTree.commandName(new String[] {"--store", "s.db"})).isNull();
    }

    @Test
    void aNamedCommandGetsOnlyItselfWithItsSubcommands() {
        CommandLine root = new CommandLine(new CountersignCommand(Map.of()));
        CommandTree.addCommands(root, new String[] {"--store", "s.db", "servers", "list"});
        assertThat(root.getSubcommands()).containsOnlyKeys("servers");
        assertThat(root.getSubcommands().get("servers").getSubcommands()).containsKeys("list", "add", "remove");
    }

    @Test
    void aLineThatNamesNoKnownCommandGetsThemAllForHelpAndSuggestions() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(new String[] {"inbx"}, Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).isEqualTo(Cli.BAD_USAGE);
        assertThat(err.toString()).contains("'inbx'");
        CommandLine root = new CommandLine(new CountersignCommand(Map.of()));
        CommandTree.addCommands(root, new String[] {"--help"});
        assertThat(root.getSubcommands()).containsOnlyKeys(CommandTree.COMMANDS.keySet());
    }
}
