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
    void mutedNotificationsAreRememberedForThePersonWhoMutedThem() {
        Path file = folder.resolve("console.properties");
        ConsoleSettings.read(file).keepNoticesMuted("maria", true);
        ConsoleSettings.read(file).keepNoticesMuted("jonas@example.org", false);

        ConsoleSettings read = ConsoleSettings.read(file);
        assertThat(read.noticesMuted("maria")).isTrue();
        assertThat(read.noticesMuted("jonas@example.org")).isFalse();
        assertThat(read.noticesMuted("ada")).as("a person who never chose").isFalse();
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

    @Test
    void aWindowPlacementKeptIsTheOneReadAtTheNextStart() {
        Path file = folder.resolve("console.properties");
        ConsoleSettings.read(file).keepTheme(Theme.DARK);
        ConsoleSettings.read(file).keepPlacement(new WindowPlacement(40, 30, 1440, 900, 410.4, 300));

        ConsoleSettings read = ConsoleSettings.read(file);

        assertThat(read.placement()).contains(new WindowPlacement(40, 30, 1440, 900, 410, 300));
        assertThat(read.theme(Theme.LIGHT)).as("kept beside the place").isEqualTo(Theme.DARK);
    }

    @Test
    void aPlacementSmallerThanTheSmallestWindowOrWithoutANumberLeavesTheDefault() throws Exception {
        Path small = Files.writeString(folder.resolve("small.properties"), "window.x=0\nwindow.y=0\nwindow.width=800"
                + "\nwindow.height=600\nwindow.listWidth=300\nwindow.denialsDetailWidth=280\n");
        Path broken = Files.writeString(folder.resolve("broken.properties"), "window.x=left\n");

        assertThat(ConsoleSettings.read(small).placement()).isEmpty();
        assertThat(ConsoleSettings.read(broken).placement()).isEmpty();
        assertThat(ConsoleSettings.read(folder.resolve("absent.properties")).placement()).isEmpty();
    }
}
