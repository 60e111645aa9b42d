package io.countersign.console;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsoleSettingsTest {
    @TempDir
    Path folder;

    @Test
    void aThemeKeptIsTheThemeReadAtTheNextStart() {
        Path file = folder.resolve("config/countersign/console.properties");
        ConsoleSettings.read(file).keepTheme(Theme.DARK);

        assertThat(ConsoleSettings.read(file).theme(Theme.LIGHT)).isEqualTo(Theme.DARK);
        assertThat(file.getParent()).isDirectoryNotContaining("glob:**.tmp");
    }

    @Test
    void withNoFileTheFallbackApplies() {
        assertThat(ConsoleSettings.read(folder.resolve("absent.properties")).theme(Theme.DARK)).isEqualTo(Theme.DARK);
    }

    @Test
    void aThemeThisVersionDoesNotHaveLeavesTheFallback() throws Exception {
        Path file = Files.writeString(folder.resolve("console.properties"), "theme=SEPIA\n");

        assertThat(ConsoleSettings.read(file).theme(Theme.LIGHT)).isEqualTo(Theme.LIGHT);
    }

    @Test
    void anUnreadableFileLeavesTheDefaultsAndIsReplacedAtTheNextChange() throws Exception {
        // a malformed \\u escape makes Properties.load fail
        Path file = Files.writeString(folder.resolve("console.properties"), "theme=\\u00\n");
        ConsoleSettings settings = ConsoleSettings.read(file);
        assertThat(settings.theme(Theme.LIGHT)).isEqualTo(Theme.LIGHT);

        settings.keepTheme(Theme.DARK);

        assertThat(ConsoleSettings.read(file).theme(Theme.LIGHT)).isEqualTo(Theme.DARK);
    }

    @Test
    void aThemeThatCannotBeWrittenIsStillTheOneInUse() throws Exception {
        Path blocked = Files.writeString(folder.resolve("not-a-folder"), "");
        ConsoleSettings settings = ConsoleSettings.read(blocked.resolve("console.properties"));

        settings.keepTheme(Theme.DARK);

        assertThat(settings.theme(Theme.LIGHT)).isEqualTo(Theme.DARK);
    }

    @Test
    void theFileFollowsXdgConfigHomeElseTheHomeFolder() {
        assertThat(ConsoleSettings.defaultFile(Map.of("XDG_CONFIG_HOME", "/cfg", "HOME", "/home/ana")))
                .isEqualTo(Path.of("/cfg/countersign/console.properties"));
        assertThat(ConsoleSettings.defaultFile(Map.of("XDG_CONFIG_HOME", " ", "HOME", "/home/ana")))
                .isEqualTo(Path.of("/home/ana/.config/countersign/console.properties"));
    }
}
