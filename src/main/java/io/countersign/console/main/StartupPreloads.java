package io.countersign.console.main;

import java.util.Objects;
import java.util.Set;
import javafx.animation.PauseTransition;
import javafx.event.EventHandler;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.input.InputEvent;
import javafx.util.Duration;

/**
 * The window's start-up tuning: what loads ahead of being opened, and when. The inbox's first picture comes
 * first; the cards and the timeline follow a moment later, and the denial browser, the slowest screen to load,
 * loads in the background and joins the window hidden once nobody is using it.
 */
final class StartupPreloads {
    private static final Duration CARD_PRELOAD_DELAY = Duration.seconds(1);
    /** How long the person leaves the window alone before it does work that holds it up (a screen's first styling). */
    private static final Duration IDLE_TIME = Duration.seconds(2);

    private final DetailViews details;
    private final ScreenDeck screens;
    private final Set<Section> sections;
    private final Node root;
    /** Set when the window closes: work scheduled ahead of time no longer starts. */
    private boolean stopped;

    /**
     * @param sections the sections this person may open
     * @param root     the window's root, whose scene tells whether the person is busy
     */
    StartupPreloads(DetailViews details, ScreenDeck screens, Set<Section> sections, Node root) {
        this.details = Objects.requireNonNull(details, "details");
        this.screens = Objects.requireNonNull(screens, "screens");
        this.sections = Set.copyOf(sections);
        this.root = Objects.requireNonNull(root, "root");
    }

    /**
     * Loads the cards a second after the inbox has loaded, so the first one opens without a wait; loading them
     * sooner would hold the inbox's first picture back by their FXML and styles (on a cold start the list's
     * first rows and their styles take a few hundred milliseconds after the inbox has loaded).
     */
    void afterTheInboxShows() {
        PauseTransition drawn = new PauseTransition(CARD_PRELOAD_DELAY);
        drawn.setOnFinished(event -> preloadCards());
        drawn.play();
    }

    /** Stops the preloads not yet started. */
    void stop() {
        stopped = true;
    }

    private void preloadCards() {
        if (stopped) {
            return;
        }
        details.loadAll();
        preloadDenials();
    }

    /**
     * Loads the denial browser in the background, the screen with the most to load (a table, four charts), then,
     * once the person has left mouse and keyboard alone for a moment, lets it join the window hidden with its first
     * page and charts: its first styling and layout (about half a second of the JavaFX thread on a cold start)
     * happen while nobody is waiting for the window, rather than when they open the browser.
     */
    private void preloadDenials() {
        if (sections.contains(Section.DENIALS) && !screens.hasJoined(Section.DENIALS)) {
            screens.preload(Section.DENIALS, () -> whenIdle(() -> prepareHidden(Section.DENIALS)));
        }
    }

    /** Runs {@code work} once no mouse, key or scroll event has reached the window for {@link #IDLE_TIME}. */
    private void whenIdle(Runnable work) {
        Scene scene = root.getScene();
        if (scene == null) {
            return;
        }
        PauseTransition quiet = new PauseTransition(IDLE_TIME);
        EventHandler<InputEvent> activity = event -> quiet.playFromStart();
        scene.addEventFilter(InputEvent.ANY, activity);
        quiet.setOnFinished(event -> {
            scene.removeEventFilter(InputEvent.ANY, activity);
            work.run();
        });
        quiet.play();
    }

    /** Adds a screen to the window, hidden, unless it has been opened or the window closed meanwhile. */
    private void prepareHidden(Section section) {
        if (!stopped && !screens.hasJoined(section)) {
            screens.addHidden(section);
        }
    }
}
