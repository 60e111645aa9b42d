package io.countersign.console.main;

import io.countersign.console.card.ApprovalCardController;
import io.countersign.console.common.FxController;
import io.countersign.console.common.FxmlLoaderFactory;
import io.countersign.console.common.FxmlLoaderFactory.Loaded;
import io.countersign.console.common.FxmlView;
import io.countersign.console.common.PreloadedView;
import io.countersign.console.common.ScreenController;
import io.countersign.console.common.Messages;
import io.countersign.console.controls.BannerView;
import io.countersign.console.controls.ToastView;
import io.countersign.console.common.Banner;
import io.countersign.console.inbox.InboxController;
import io.countersign.console.input.InputCardController;
import io.countersign.console.newrun.NewRunController;
import io.countersign.console.newrun.NewRunViewModel;
import io.countersign.console.timeline.TimelineController;
import io.countersign.service.RunSummary;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javafx.animation.KeyFrame;
import javafx.animation.PauseTransition;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.event.EventHandler;
import javafx.fxml.FXML;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBoxBase;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextInputControl;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.input.InputEvent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.util.Duration;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * Wires the main window: sidebar, the inbox or runs list, the detail pane (a card, a timeline or the empty
 * page), status bar, toasts and the keyboard. Which detail shows is the view model's decision; this only
 * swaps the views it was given.
 */
public final class MainWindowController implements FxController {
    private static final Duration TOAST_TIME = Duration.seconds(8);
    private static final Duration TICK = Duration.seconds(5);
    private static final Duration CARD_PRELOAD_DELAY = Duration.seconds(1);
    /** How long the person leaves the window alone before it does work that holds it up (a screen's first styling). */
    private static final Duration IDLE_TIME = Duration.seconds(2);

    private final MainWindowViewModel viewModel;
    private final Messages messages;
    private final FxmlLoaderFactory views;
    private Loaded<ApprovalCardController> approvalView;
    private Loaded<InputCardController> inputView;
    private Loaded<TimelineController> timelineView;
    private Loaded<NewRunController> newRunView;
    private final Map<Section, ToggleButton> navButtons = new EnumMap<>(Section.class);
    private final Map<Section, Loaded<? extends FxController>> screens = new EnumMap<>(Section.class);
    private final Map<Section, PreloadedView<? extends FxController>> preloaded = new EnumMap<>(Section.class);
    private final NewRunViewModel newRun;
    private final Map<Toast, Node> toastNodes = new HashMap<>();
    private final Timeline ticker;
    private Stage newRunStage;
    /** Set when the window closes: work scheduled ahead of time (the preloads) no longer starts. */
    private boolean stopped;

    @FXML
    private StackPane root;
    @FXML
    private BannerView storeBanner;
    @FXML
    private VBox navItems;
    @FXML
    private StackPane content;
    @FXML
    private SplitPane split;
    @FXML
    private Button newRunButton;
    @FXML
    private Label userName;
    @FXML
    private Label userRoles;
    @FXML
    private StackPane listPane;
    @FXML
    private Node inboxPane;
    @FXML
    private InboxController inboxPaneController;
    @FXML
    private VBox runsPane;
    @FXML
    private ListView<RunSummary> recentList;
    @FXML
    private StackPane detailPane;
    @FXML
    private VBox emptyState;
    @FXML
    private Label emptyTitle;
    @FXML
    private Label emptyText;
    @FXML
    private Button emptyNewRun;
    @FXML
    private Label status;
    @FXML
    private Button themeToggle;
    @FXML
    private VBox toasts;

    /**
     * @param views  loads the detail views and the New run dialog, each once, when first needed
     * @param newRun the New run dialog's view model, reset each time it opens
     */
    public MainWindowController(MainWindowViewModel viewModel, Messages messages, FxmlLoaderFactory views,
                                NewRunViewModel newRun) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.views = Objects.requireNonNull(views, "views");
        this.newRun = Objects.requireNonNull(newRun, "newRun");
        this.ticker = new Timeline(new KeyFrame(TICK, event -> viewModel.tick()));
    }

    @FXML
    private void initialize() {
        storeBanner.bannerProperty().bind(Bindings.createObjectBinding(
                () -> viewModel.connection().isConnected() ? null
                        : Banner.danger(messages.get("main.storeUnreachable",
                        viewModel.connection().problemProperty().get())),
                viewModel.connection().connectedProperty(), viewModel.connection().problemProperty()));

        ToggleGroup nav = new ToggleGroup();
        viewModel.sections().forEach(section -> navItems.getChildren().add(navButton(section, nav)));
        nav.selectedToggleProperty().addListener((o, was, now) -> {
            if (now == null) {
                was.setSelected(true);
            } else {
                viewModel.sectionProperty().set((Section) now.getUserData());
            }
        });
        viewModel.sectionProperty().addListener((o, was, now) -> showSection(now));
        showSection(viewModel.sectionProperty().get());
        newRunButton.setOnAction(event -> openNewRun());
        newRunButton.setDisable(!viewModel.mayAct());
        emptyNewRun.setOnAction(event -> openNewRun());
        emptyNewRun.setDisable(!viewModel.mayAct());
        userName.setText(viewModel.userName());
        userRoles.setText(viewModel.roles());

        recentList.setItems(viewModel.runs().runs());
        recentList.setCellFactory(list -> new RunCell());
        recentList.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (now != null) {
                viewModel.openTimeline(now.runId());
            }
        });

        viewModel.detailProperty().addListener((o, was, now) -> showDetail(now));
        // the cards load once the inbox is on screen, so the first one opens without a wait
        viewModel.inbox().loadedProperty().addListener((o, was, now) -> preloadCardsAfterTheInboxShows());
        showDetail(viewModel.detailProperty().get());
        emptyTitle.textProperty().bind(Bindings.when(viewModel.inbox().loadedProperty()
                        .and(Bindings.isEmpty(viewModel.inbox().allRuns())))
                .then(messages.get("main.empty.title")).otherwise(messages.get("main.select.title")));
        emptyText.textProperty().bind(Bindings.when(Bindings.isEmpty(viewModel.inbox().allRuns()))
                .then(messages.get("main.empty.text")).otherwise(messages.get("main.select.text")));

        status.textProperty().bind(viewModel.statusProperty());
        themeToggle.textProperty().bind(Bindings.createStringBinding(
                () -> messages.get("main.switchTo." + viewModel.themeProperty().get().other().name()),
                viewModel.themeProperty()));
        themeToggle.setOnAction(event -> viewModel.toggleTheme());

        viewModel.toasts().addListener((ListChangeListener<Toast>) change -> {
            while (change.next()) {
                change.getRemoved().forEach(toast -> toasts.getChildren().remove(toastNodes.remove(toast)));
                change.getAddedSubList().forEach(this::showToast);
            }
        });

        ticker.setCycleCount(Timeline.INDEFINITE);
        ticker.play();
        root.sceneProperty().addListener((o, was, now) -> {
            if (now != null) {
                // shortcuts go first, so that no focused control swallows Enter or Esc
                now.addEventFilter(KeyEvent.KEY_PRESSED, this::onKey);
                // the keyboard starts in the inbox, where J and K work
                Platform.runLater(inboxPaneController::focusList);
            }
        });
    }

    /**
     * Loads the cards a second after the inbox has loaded, so the first one opens without a wait; loading them
     * sooner would hold the inbox's first picture back by their FXML and styles (on a cold start the list's
     * first rows and their styles take a few hundred milliseconds after the inbox has loaded).
     */
    private void preloadCardsAfterTheInboxShows() {
        PauseTransition drawn = new PauseTransition(CARD_PRELOAD_DELAY);
        drawn.setOnFinished(event -> preloadCards());
        drawn.play();
    }

    private void preloadCards() {
        if (stopped) {
            return;
        }
        approvalView();
        inputView();
        timelineView();
        preloadDenials();
    }

    /**
     * Loads the denial browser in the background, the screen with the most to load (a table, four charts), then,
     * once the person has left mouse and keyboard alone for a moment, lets it join the window hidden with its first
     * page and charts: its first styling and layout (about half a second of the JavaFX thread on a cold start)
     * happen while nobody is waiting for the window, rather than when they open the browser.
     */
    private void preloadDenials() {
        if (viewModel.sections().contains(Section.DENIALS) && !screens.containsKey(Section.DENIALS)) {
            PreloadedView<? extends FxController> denials = PreloadedView.start(views, FxmlView.DENIALS);
            preloaded.put(Section.DENIALS, denials);
            denials.whenLoaded(() -> whenIdle(() -> prepareHidden(Section.DENIALS)));
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
        if (stopped || screens.containsKey(section)) {
            return;
        }
        Loaded<? extends FxController> screen = screen(section, section.screen().orElseThrow());
        screen.root().setVisible(false);
        content.getChildren().add(screen.root());
        ((ScreenController) screen.controller()).preparedHidden();
    }

    /** Stops the clock that moves the waiting times on, and the preloads not yet started. */
    public void stop() {
        stopped = true;
        ticker.stop();
    }

    /** A sidebar entry; the inbox's carries the waiting count. */
    private ToggleButton navButton(Section section, ToggleGroup group) {
        HBox graphic = new HBox(10, new FontIcon(section.icon()), new Label(messages.get(section.labelKey())));
        graphic.setAlignment(Pos.CENTER_LEFT);
        if (section == Section.INBOX) {
            Label count = new Label();
            count.getStyleClass().add("nav-count");
            count.textProperty().bind(Bindings.size(viewModel.inbox().allRuns()).asString());
            count.visibleProperty().bind(Bindings.isNotEmpty(viewModel.inbox().allRuns()));
            Region gap = new Region();
            HBox.setHgrow(gap, Priority.ALWAYS);
            graphic.getChildren().addAll(gap, count);
        }
        ToggleButton button = new ToggleButton();
        button.setGraphic(graphic);
        button.setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        button.setAccessibleText(messages.get(section.labelKey()));
        button.getStyleClass().add("nav-item");
        button.setMaxWidth(Double.MAX_VALUE);
        button.setUserData(section);
        button.setToggleGroup(group);
        navButtons.put(section, button);
        return button;
    }

    private void showSection(Section section) {
        Optional.ofNullable(navButtons.get(section)).ifPresent(button -> button.setSelected(true));
        Node shown = section.screen().map(view -> screen(section, view).root()).orElse(split);
        // the others stay in the window, hidden, so that coming back to one does not style it anew; the shown one
        // goes first among them (a move, not a removal), where a search of the window by id meets it first
        if (!content.getChildren().contains(shown)) {
            content.getChildren().add(shown);
        }
        shown.toBack();
        content.getChildren().forEach(child -> child.setVisible(child == shown));
        if (section.screen().isPresent()) {
            ((ScreenController) screens.get(section).controller()).shown();
            return;
        }
        boolean inbox = section == Section.INBOX;
        if (!inbox && runsPane.getParent() == null) {
            listPane.getChildren().add(runsPane);
        }
        inboxPane.setVisible(inbox);
        runsPane.setVisible(!inbox);
        if (inbox) {
            recentList.getSelectionModel().clearSelection();
        }
    }

    private Loaded<? extends FxController> screen(Section section, FxmlView view) {
        return screens.computeIfAbsent(section, missing -> {
            PreloadedView<? extends FxController> ahead = preloaded.remove(section);
            return ahead == null ? views.load(view) : ahead.get();
        });
    }

    private void showDetail(Detail detail) {
        Node shown;
        if (detail instanceof Detail.ApprovalCard) {
            shown = approvalView().root();
        } else if (detail instanceof Detail.InputCard) {
            shown = inputView().root();
        } else if (detail instanceof Detail.Timeline) {
            shown = timelineView().root();
        } else {
            shown = emptyState;
        }
        if (detailPane.getChildren().size() != 1 || detailPane.getChildren().get(0) != shown) {
            detailPane.getChildren().setAll(shown);
        }
        // the keyboard goes with the person to the list beside the new detail (J and K work there), unless they
        // are typing a search: a view that left, or a control disabled meanwhile, must not keep it
        if (!inboxPaneController.searchFocused()) {
            focusList();
        }
    }

    private Loaded<ApprovalCardController> approvalView() {
        if (approvalView == null) {
            approvalView = views.load(FxmlView.APPROVAL_CARD);
            approvalView.controller().setOnOpenTimeline(viewModel::openTimeline);
        }
        return approvalView;
    }

    private Loaded<InputCardController> inputView() {
        if (inputView == null) {
            inputView = views.load(FxmlView.INPUT_CARD);
            inputView.controller().setOnOpenTimeline(viewModel::openTimeline);
        }
        return inputView;
    }

    private Loaded<TimelineController> timelineView() {
        if (timelineView == null) {
            timelineView = views.load(FxmlView.TIMELINE);
            timelineView.controller().setOnBack(viewModel::back);
        }
        return timelineView;
    }

    private void showToast(Toast toast) {
        ToastView view = new ToastView(toast.runId() == null ? Feather.INBOX : Feather.CHECK_CIRCLE, toast.text());
        if (toast.runId() != null) {
            view.setLink(messages.get("toast.openTimeline"), () -> viewModel.openTimeline(toast.runId()));
        }
        view.setOnClose(() -> viewModel.dismiss(toast));
        toastNodes.put(toast, view);
        toasts.getChildren().add(view);
        PauseTransition hide = new PauseTransition(TOAST_TIME);
        hide.setOnFinished(event -> viewModel.dismiss(toast));
        hide.play();
    }

    private void openNewRun() {
        if (!viewModel.mayAct()) {
            return;
        }
        if (newRunStage == null) {
            newRunView = views.load(FxmlView.NEW_RUN);
            newRunStage = new Stage();
            newRunStage.initOwner(root.getScene().getWindow());
            newRunStage.initModality(Modality.WINDOW_MODAL);
            newRunStage.setTitle(messages.get("newRun.title"));
            Scene scene = new Scene(newRunView.root());
            scene.addEventHandler(KeyEvent.KEY_PRESSED, event -> {
                if (event.getCode() == KeyCode.ESCAPE) {
                    newRunStage.hide();
                }
            });
            newRunStage.setScene(scene);
            newRunView.controller().setOnClose(newRunStage::hide);
        }
        viewModel.themeProperty().get().apply(newRunStage.getScene());
        newRun.open();
        newRunStage.show();
        newRunView.controller().focusFirst();
    }

    private void onKey(KeyEvent event) {
        if (viewModel.sectionProperty().get().screen().isPresent()) {
            // the shortcuts act on the inbox and its cards, which a full-width screen hides
            return;
        }
        Node focused = focusOwner();
        if (popupShowing(focused)
                || event.getCode() == KeyCode.ENTER && focused instanceof TextInputControl
                && !inside(focused, detailPane)) {
            // a list to pick from, or the search box: their own Enter and Esc come first
            return;
        }
        Shortcut.of(event.getCode(), event.isShortcutDown(), typing(focused)).ifPresent(shortcut -> {
            switch (shortcut.action()) {
                case NEXT -> viewModel.next();
                case PREVIOUS -> viewModel.previous();
                case APPROVE_ALL -> viewModel.approveAll();
                case DENY_ALL -> {
                    viewModel.denyAll();
                    if (viewModel.detailProperty().get() instanceof Detail.ApprovalCard) {
                        approvalView().controller().focusReason();
                    }
                }
                case TOGGLE -> viewModel.toggle(shortcut.position());
                case SUBMIT -> viewModel.submit();
                case SEARCH -> {
                    if (viewModel.sections().contains(Section.INBOX)) {
                        viewModel.sectionProperty().set(Section.INBOX);
                        inboxPaneController.focusSearch();
                    }
                }
                case BACK -> {
                    if (viewModel.detailProperty().get() instanceof Detail.Timeline) {
                        viewModel.back();
                    } else {
                        focusList();
                    }
                }
            }
            event.consume();
        });
    }

    private void focusList() {
        if (viewModel.sectionProperty().get() == Section.RUNS) {
            recentList.requestFocus();
        } else {
            inboxPaneController.focusList();
        }
    }

    private Node focusOwner() {
        return root.getScene() == null ? null : root.getScene().getFocusOwner();
    }

    private static boolean inside(Node node, Node ancestor) {
        for (Node at = node; at != null; at = at.getParent()) {
            if (at == ancestor) {
                return true;
            }
        }
        return false;
    }

    private static boolean popupShowing(Node focused) {
        return focused instanceof ComboBoxBase<?> box && box.isShowing()
                || focused instanceof ChoiceBox<?> choice && choice.isShowing();
    }

    private static boolean typing(Node focused) {
        return focused instanceof TextInputControl
                || focused instanceof ComboBoxBase<?> box && box.isEditable()
                || focused instanceof Spinner<?> spinner && spinner.isEditable();
    }

    /** A line of the Runs list: agent and run, then status, who started it and when. */
    private final class RunCell extends ListCell<RunSummary> {
        private final Label title = new Label();
        private final Label details = new Label();
        private final Label prompt = new Label();
        private final VBox box = new VBox(2, title, details, prompt);

        RunCell() {
            title.getStyleClass().add("inbox-agent");
            details.getStyleClass().add("inbox-waiting");
            prompt.getStyleClass().add("inbox-who");
            box.setPrefWidth(0);
        }

        @Override
        protected void updateItem(RunSummary run, boolean empty) {
            super.updateItem(run, empty);
            if (empty || run == null) {
                setGraphic(null);
                return;
            }
            title.setText(viewModel.runs().titleOf(run));
            details.setText(viewModel.runs().detailsOf(run));
            prompt.setText(run.prompt());
            setGraphic(box);
        }
    }
}
