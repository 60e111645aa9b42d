package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.denials.DenialsViewModel;
import io.countersign.console.denials.TimeRange;
import io.countersign.console.main.Section;
import io.countersign.engine.Actor;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.value.ChangeListener;
import javafx.collections.ListChangeListener;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The denial browser over 1,000,000 events in SQLite, spread over 90 days: opening it (a few seconds after the
 * inbox, as a person would) and changing a filter update the table within 200 ms and the charts within 500 ms.
 * Timing on a shared machine is noise, so it runs only when asked: {@code mvn -B -o test -Dtest=DenialBrowserBenchmarkTest -Dconsole.bench}.
 */
@EnabledIfSystemProperty(named = "console.bench", matches = ".*")
@ExtendWith(ApplicationExtension.class)
class DenialBrowserBenchmarkTest {
    private static final int EVENTS = Integer.getInteger("console.bench.events", 1_000_000);
    private static final int CHUNK = 10_000;
    private static final int ROUNDS = 3;
    private static final Duration IDLE_BEFORE_OPENING = Duration.ofSeconds(5);
    /** As many workers as the console application starts. */
    private final ExecutorService executor = Executors.newFixedThreadPool(3);
    private Stage stage;
    private ConsoleWindow window;
    private CountersignRuntime runtime;
    @TempDir
    Path folder;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void close() {
        if (window != null) {
            WaitForAsyncUtils.asyncFx(window::close);
            WaitForAsyncUtils.waitForFxEvents();
        }
        executor.shutdownNow();
        if (runtime != null) {
            runtime.close();
        }
    }

    /** When the table and the charts showed the answer to one change. */
    private record Timing(long tableNanos, long chartsNanos) {
    }

    @Test
    void aMillionEventsFilterWithinTheGoals(FxRobot robot) throws InterruptedException {
        runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")));
        Actor admin = runtime.localUser();
        long seeding = System.nanoTime();
        EventSeeds seeds = new EventSeeds(42, Instant.now(), Duration.ofDays(90), EVENTS);
        for (int done = 0; done < EVENTS; done += CHUNK) {
            runtime.store().events().appendAll(seeds.next(Math.min(CHUNK, EVENTS - done)));
        }
        System.out.printf("denial browser benchmark: %,d events seeded in %d s%n", EVENTS,
                Duration.ofNanos(System.nanoTime() - seeding).toSeconds());

        robot.interact(() -> window = ConsoleWindow.open(stage, new ConsoleContext(runtime.consoleServices(), admin,
                "bench", Theme.LIGHT), executor, Clock.systemDefaultZone()));
        DenialsViewModel denials = window.denials();
        // a person looks at the inbox for a moment before opening the browser, while the console is idle
        await(() -> window.viewModel().inbox().loadedProperty().get());
        Duration freeze = longestFreeze(IDLE_BEFORE_OPENING);
        System.out.printf("  while idle before opening it (the browser joins the window hidden): the JavaFX thread"
                + " answered within %d ms at worst%n", freeze.toMillis());
        Timing opening = measure(denials, ignored -> window.viewModel().sectionProperty().set(Section.DENIALS));
        System.out.printf("  open the browser (last 7 days, first time, %d s after the inbox): table %d ms,"
                + " charts %d ms%n", IDLE_BEFORE_OPENING.toSeconds(), opening.tableNanos() / 1_000_000,
                opening.chartsNanos() / 1_000_000);

        Map<String, Consumer<DenialsViewModel>> changes = new LinkedHashMap<>();
        changes.put("reopen (switch away and back)", model -> {
            window.viewModel().sectionProperty().set(Section.RUNS);
            window.viewModel().sectionProperty().set(Section.DENIALS);
        });
        changes.put("rule", model -> model.filters().ruleProperty().set(EventSeeds.RULES[1]));
        changes.put("rule + reason", model -> model.filters().reasonProperty().set(EventSeeds.REASONS[1]));
        changes.put("clear filters", model -> model.filters().clearFilters());
        changes.put("tool", model -> model.filters().toolProperty().set(EventSeeds.TOOLS[2]));
        changes.put("type", model -> model.filters().typeProperty().set(EventType.TOOL_DENIED));
        changes.put("range: last 30 days", model -> model.filters().rangeProperty().set(TimeRange.LAST_30_DAYS));
        changes.put("range: all time (1,000,000)", model -> model.filters().rangeProperty().set(TimeRange.ALL));
        changes.put("all time + rule", model -> model.filters().ruleProperty().set(EventSeeds.RULES[0]));
        changes.put("all time + search \"secret\"", model -> {
            model.filters().clearFilters();
            model.filters().searchProperty().set("secret");
        });
        changes.put("all time + search \"maria\"", model -> {
            model.filters().clearFilters();
            model.filters().searchProperty().set("maria");
        });
        changes.put("back to last 7 days", model -> {
            model.filters().clearFilters();
            model.filters().rangeProperty().set(TimeRange.LAST_7_DAYS);
        });

        Map<String, List<Timing>> timings = new LinkedHashMap<>();
        for (int round = 0; round < ROUNDS; round++) {
            for (Map.Entry<String, Consumer<DenialsViewModel>> change : changes.entrySet()) {
                timings.computeIfAbsent(change.getKey(), key -> new ArrayList<>())
                        .add(measure(denials, change.getValue()));
            }
        }
        List<Long> tables = new ArrayList<>();
        List<Long> charts = new ArrayList<>();
        timings.forEach((what, runs) -> {
            long table = median(runs.stream().map(Timing::tableNanos).toList());
            long chart = median(runs.stream().map(Timing::chartsNanos).toList());
            tables.add(table);
            charts.add(chart);
            System.out.printf("  %-32s table %4d ms, charts %5d ms (medians of %d)%n", what, table / 1_000_000,
                    chart / 1_000_000, runs.size());
        });

        assertThat(opening.tableNanos()).isLessThan(Duration.ofMillis(200).toNanos());
        assertThat(tables).allMatch(nanos -> nanos < Duration.ofMillis(200).toNanos());
        assertThat(charts).allMatch(nanos -> nanos < Duration.ofMillis(500).toNanos());
    }

    /**
     * Posts a task to the JavaFX thread every 10 ms for {@code period} and returns the longest any waited: how long
     * the console stopped answering a person meanwhile.
     */
    private static Duration longestFreeze(Duration period) throws InterruptedException {
        long end = System.nanoTime() + period.toNanos();
        long longest = 0;
        while (System.nanoTime() < end) {
            long posted = System.nanoTime();
            CountDownLatch ran = new CountDownLatch(1);
            Platform.runLater(ran::countDown);
            ran.await();
            longest = Math.max(longest, System.nanoTime() - posted);
            Thread.sleep(10);
        }
        return Duration.ofNanos(longest);
    }

    private static long median(List<Long> values) {
        return values.stream().sorted().toList().get(values.size() / 2);
    }

    /** Applies a change on the JavaFX thread and waits for the table's new page and the charts' last count. */
    private Timing measure(DenialsViewModel denials, Consumer<DenialsViewModel> change) {
        long[] table = {0};
        long[] charts = {0};
        long[] start = {0};
        ListChangeListener<GovernanceEvent> rows = update -> {
            if (table[0] == 0) {
                table[0] = System.nanoTime() - start[0];
            }
        };
        ChangeListener<Boolean> loaded = (o, was, now) -> {
            if (!now) {
                charts[0] = System.nanoTime() - start[0];
            }
        };
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.asyncFx(() -> {
            denials.rows().addListener(rows);
            denials.chartsLoadingProperty().addListener(loaded);
            start[0] = System.nanoTime();
            change.accept(denials);
        });
        await(() -> table[0] != 0 && charts[0] != 0 && !denials.loadingProperty().get());
        WaitForAsyncUtils.asyncFx(() -> {
            denials.rows().removeListener(rows);
            denials.chartsLoadingProperty().removeListener(loaded);
        });
        return new Timing(table[0], charts[0]);
    }
}
