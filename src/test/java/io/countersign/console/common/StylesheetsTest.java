package io.countersign.console.common;

import static org.assertj.core.api.Assertions.assertThat;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javafx.css.CssParser;
import javafx.css.Stylesheet;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The console's stylesheets parse without errors, and the binary form the build writes beside each one (which
 * JavaFX reads in its place) says the same: a stylesheet edited without a build would otherwise keep its old looks.
 */
class StylesheetsTest {
    private static final Path STYLES = Path.of("styles");

    @TestFactory
    Stream<DynamicTest> everyStylesheetParsesCleanlyAndItsBinaryFormMatches() throws IOException {
        List<Path> sheets;
        try (Stream<Path> files = Files.list(STYLES)) {
            sheets = files.filter(file -> file.toString().endsWith(".css")).sorted().toList();
        }
        assertThat(sheets).extracting(sheet -> sheet.getFileName().toString())
                .contains("app.css", "light.css", "dark.css", "denials.css");
        return sheets.stream().map(sheet -> DynamicTest.dynamicTest(sheet.getFileName().toString(), () -> {
            String name = sheet.getFileName().toString();
            CssParser.errorsProperty().clear();
            Stylesheet parsed = new CssParser().parse(sheet.toUri().toURL());
            assertThat(CssParser.errorsProperty()).as("parse errors in %s", name).isEmpty();

            URL binary = Theme.class.getResource("/styles/" + name.replace(".css", ".bss"));
            assertThat(binary).as("the build's binary form of %s on the class path", name).isNotNull();
            assertThat(rules(Stylesheet.loadBinary(binary)))
                    .as("the binary form of %s (build again after editing it)", name)
                    .isEqualTo(rules(parsed));
        }));
    }

    private static List<String> rules(Stylesheet stylesheet) {
        // a binary stylesheet decodes a rule's declarations when they are first asked for
        return stylesheet.getRules().stream().map(rule -> rule.getSelectors() + " " + rule.getDeclarations()).toList();
    }
}
