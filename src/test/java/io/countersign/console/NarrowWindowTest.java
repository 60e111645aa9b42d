package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import io.countersign.console.common.PaneWidths;
import javafx.scene.Node;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.Region;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A window made narrow and wide again: the sidebar narrows to its icons below 1200 px, the list gives way to the
 * card, and the list's width the person dragged comes back when the room does; the window's place and widths are
 * what the next start restores.
 */
class NarrowWindowTest extends ConsoleRobotTest {
    private double width(FxRobot robot, String query) {
        return onFx(() -> robot.lookup(query).queryAs(Region.class).getWidth());
    }

    private void resize(FxRobot robot, double width, double height) {
        robot.interact(() -> {
            stage.setWidth(width);
            stage.setHeight(height);
        });
        await(() -> window.scene().getWidth() == width);
        // the kept width is given back after the split's own layout, in a later pulse
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void theDraggedListWidthReturnsAfterTheWindowWasNarrow(FxRobot robot) {
        openDemo(robot, WindowSize.AS_OPENED);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        double sidebar = width(robot, "#sidebar");
        Node divider = robot.lookup("#split > .split-pane-divider").query();
        robot.drag(divider).moveBy(60, 0).release(MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();
        double dragged = width(robot, "#listPane");

        resize(robot, 1024, 700);
        double narrowSidebar = width(robot, "#sidebar");
        boolean labelsHidden = onFx(() -> !robot.lookup("#brandName").query().isVisible());
        double narrowList = width(robot, "#listPane");
        double detail = width(robot, "#detailPane");
        resize(robot, 1280, 800);

        assertThat(sidebar).isEqualTo(200);
        assertThat(dragged).isGreaterThan(PaneWidths.DEFAULT_LIST + 40);
        assertThat(narrowSidebar).isEqualTo(72);
        assertThat(labelsHidden).isTrue();
        assertThat(detail).as("the card keeps its minimum").isGreaterThanOrEqualTo(620);
        assertThat(narrowList + detail).isLessThanOrEqualTo(1024 - narrowSidebar);
        assertThat(width(robot, "#listPane")).isCloseTo(dragged, offset(2.0));
        assertThat(onFx(() -> window.placement().listWidth())).isCloseTo(dragged, offset(2.0));
        assertThat(onFx(() -> window.placement().width())).isEqualTo(1280);
    }
}
