package io.countersign.console.main;

import atlantafx.base.controls.ToggleSwitch;
import io.countersign.console.common.Banner;
import io.countersign.console.common.FxController;
import io.countersign.console.common.FxmlLoaderFactory;
import io.countersign.console.common.FxmlLoaderFactory.Loaded;
import io.countersign.console.common.FxmlView;
import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneWidths;
import io.countersign.console.controls.BannerView;
import io.countersign.console.controls.KeptPaneWidth;
import io.countersign.console.controls.ToastView;
import io.countersign.console.inbox.InboxController;
import io.countersign.console.newrun.NewRunController;
import io.countersign.console.newrun.NewRunViewModel;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.state.RunStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javafx.animation.KeyFrame;
import javafx.animation.PauseTransition;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.BooleanProperty;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.util.Duration;
import org.kordamp.ikonli.feather.Feather;

/**
 * Wires the main window: sidebar, the inbox or runs list, the detail pane (a card, a timeline or the empty
 * page), status bar, toasts and the keyboard. Which detail shows is the view model's decision; this only
 * swaps the views it was given.
 */
public final class MainWindowController implements FxController {
    private static final Duration TOAST_TIME = Duration.seconds(8);
    private static final Duration TICK = Duration.seconds(5);
    private static final double TOAST_MARGIN = 12;
    private static final double TOAST_NARROWEST = 250;
    private static final double TOAST_WIDEST = 460;

    private final MainWindowViewModel viewModel;
    private final Messages messages;
    private final FxmlLoaderFactory views;
    private final DetailViews details;
    private Loaded<NewRunController> newRunView;
    private final NewRunViewModel newRun;
    private final Map<Toast, Node> toastNodes = new HashMap<>();
    private final Timeline ticker;
    private Stage newRunStage;
    private ScreenDeck screens;
    private StartupPreloads preloads;
    private RunsList runsList;
    private KeysSheet keysSheet;
    private Sidebar sidebarEntries;
    private final PaneWidths paneWidths;
    private final BooleanProperty noticesMuted;

    @FXML
    private StackPane root;
    @FXML
    private BannerView storeBanner;
    @FXML
    private VBox sidebar;
    @FXML
    private Label brandName;
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
    private TextField runsSearch;
    @FXML
    private ComboBox<RunStatus> runsStatus;
    @FXML
    private Label runsPlaceholder;
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
    private ToggleSwitch noticesSwitch;
    @FXML
    private VBox toasts;

    /**
     * @param views  loads the detail views and the New run dialog, each once, when first needed
     * @param newRun the New run dialog's view model, reset each time it opens
     * @param paneWidths the list's width the person chose, kept through narrow windows
     * @param noticesMuted whether this person muted the desktop notifications, which the status bar switches
     */
    public MainWindowController(MainWindowViewModel viewModel, Messages messages, FxmlLoaderFactory views,
                                NewRunViewModel newRun, PaneWidths paneWidths, BooleanProperty noticesMuted) {
        this.noticesMuted = Objects.requireNonNull(noticesMuted, "noticesMuted");
        this.paneWidths = Objects.requireNonNull(paneWidths, "paneWidths");
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.views = Objects.requireNonNull(views, "views");
        this.newRun = Objects.requireNonNull(newRun, "newRun");
        this.details = new DetailViews(views, viewModel);
        this.ticker = new Timeline(new KeyFrame(TICK, event -> viewModel.tick()));
    }

    @FXML
    private void initialize() {
        storeBanner.bannerProperty().bind(Bindings.createObjectBinding(
                () -> viewModel.connection().isConnected() ? null
                        : Banner.danger(messages.get("main.storeUnreachable",
                        viewModel.connection().problemProperty().get())),
                viewModel.connection().connectedProperty(), viewModel.connection().problemProperty()));

        screens = new ScreenDeck(views, content, split);
        keysSheet = new KeysSheet(messages, viewModel.themeProperty()::get);
        preloads = new StartupPreloads(details, screens, Set.copyOf(viewModel.sections()), root);
        runsList = new RunsList(recentList, new RunsList.Filters(runsSearch, runsStatus, runsPlaceholder),
                viewModel.runs(), messages, viewModel::openTimeline);
        sidebarEntries = new Sidebar(sidebar, navItems, newRunButton, List.of(brandName, userName, userRoles),
                root.widthProperty(), viewModel, messages);
        KeptPaneWidth.keep(split, true, paneWidths.listProperty());
        viewModel.sectionProperty().addListener((o, was, now) -> showSection(now));
        showSection(viewModel.sectionProperty().get());
        newRunButton.setOnAction(event -> openNewRun());
        newRunButton.disableProperty().bind(viewModel.mayActProperty().not());
        emptyNewRun.setOnAction(event -> openNewRun());
        emptyNewRun.disableProperty().bind(viewModel.mayActProperty().not());
        userName.setText(viewModel.userName());
        userRoles.textProperty().bind(viewModel.rolesProperty());

        viewModel.detailProperty().addListener((o, was, now) -> showDetail(now));
        // the cards load once the inbox is on screen, so the first one opens without a wait
        viewModel.inbox().loadedProperty().addListener((o, was, now) -> preloads.afterTheInboxShows());
        showDetail(viewModel.detailProperty().get());
        // the Runs list's empty page speaks of timelines, not of the inbox's cards
        var onRuns = viewModel.sectionProperty().isEqualTo(Section.RUNS);
        emptyTitle.textProperty().bind(Bindings.when(onRuns).then(messages.get("main.runs.title"))
                .otherwise(Bindings.when(viewModel.inbox().loadedProperty()
                        .and(Bindings.isEmpty(viewModel.inbox().allRuns())))
                .then(messages.get("main.empty.title")).otherwise(messages.get("main.select.title"))));
        emptyText.textProperty().bind(Bindings.when(onRuns).then(messages.get("main.runs.text"))
                .otherwise(Bindings.when(Bindings.isEmpty(viewModel.inbox().allRuns()))
                .then(messages.get("main.empty.text")).otherwise(messages.get("main.select.text"))));

        status.textProperty().bind(viewModel.statusProperty());
        themeToggle.textProperty().bind(Bindings.createStringBinding(
                () -> messages.get("main.switchTo." + viewModel.themeProperty().get().other().name()),
                viewModel.themeProperty()));
        themeToggle.setOnAction(event -> viewModel.toggleTheme());
        noticesSwitch.setSelected(!noticesMuted.get());
        noticesSwitch.selectedProperty().addListener((o, was, now) -> noticesMuted.set(!now));
        noticesMuted.addListener((o, was, now) -> noticesSwitch.setSelected(!now));
        // notices announce cards: a person without an inbox gets none
        noticesSwitch.visibleProperty().bind(Bindings.createBooleanBinding(
                () -> viewModel.sections().contains(Section.INBOX), viewModel.sections()));
        noticesSwitch.managedProperty().bind(noticesSwitch.visibleProperty());

        // over the foot of the list, clear of the decision bar where the person works next
        toasts.translateXProperty().bind(sidebar.widthProperty().add(TOAST_MARGIN));
        toasts.maxWidthProperty().bind(Bindings.max(TOAST_NARROWEST,
                Bindings.min(TOAST_WIDEST, listPane.widthProperty().subtract(2 * TOAST_MARGIN))));
        viewModel.toasts().addListener((ListChangeListener<Toast>) change -> {
            while (change.next()) {
                change.getRemoved().forEach(toast -> toasts.getChildren().remove(toastNodes.remove(toast)));
                change.getAddedSubList().forEach(this::showToast);
            }
        });

        ticker.setCycleCount(Timeline.INDEFINITE);
        ticker.play();
        KeyboardShortcuts keys = new KeyboardShortcuts(viewModel, detailPane, new KeyboardShortcuts.FocusMoves(
                this::focusList, () -> details.approval().controller().focusReason(),
                inboxPaneController::focusSearch, () -> keysSheet.show(root.getScene().getWindow())),
                inboxPaneController.selection());
        root.sceneProperty().addListener((o, was, now) -> {
            if (now != null) {
                keys.install(now);
                // the keyboard starts in the inbox, where J and K work
                Platform.runLater(inboxPaneController::focusList);
            }
        });
    }

    /** Stops the clock that moves the waiting times on, and the preloads not yet started. */
    public void stop() {
        preloads.stop();
        ticker.stop();
    }

    private void showSection(Section section) {
        sidebarEntries.select(section);
        screens.show(section);
        if (section.screen().isPresent()) {
            return;
        }
        boolean inbox = section == Section.INBOX;
        if (!inbox && runsPane.getParent() == null) {
            listPane.getChildren().add(runsPane);
        }
        inboxPane.setVisible(inbox);
        runsPane.setVisible(!inbox);
        if (inbox) {
            runsList.clearSelection();
        }
    }

    private void showDetail(Detail detail) {
        Node shown = details.rootOf(detail, emptyState);
        if (detailPane.getChildren().size() != 1 || detailPane.getChildren().get(0) != shown) {
            detailPane.getChildren().setAll(shown);
        }
        // the keyboard goes with the person to the list beside the new detail (J and K work there), unless they
        // are typing a search: a view that left, or a control disabled meanwhile, must not keep it
        if (!inboxPaneController.searchFocused()) {
            focusList();
        }
    }

    private void showToast(Toast toast) {
        ToastView view = new ToastView(toast.warning() ? Feather.ALERT_TRIANGLE
                : toast.link() == Toast.Link.NONE ? Feather.INBOX : Feather.CHECK_CIRCLE, toast.text());
        switch (toast.link()) {
            case TIMELINE -> view.setLink(messages.get("toast.openTimeline"),
                    () -> viewModel.openTimeline(toast.runId()));
            case CARD -> view.setLink(messages.get("toast.openCard"), () -> viewModel.openCard(toast.runId()));
            case UNDO -> view.setLink(messages.get("toast.undo"), () -> viewModel.undo(toast));
            case NONE -> {
            }
        }
        view.setOnClose(() -> viewModel.dismiss(toast));
        toastNodes.put(toast, view);
        toasts.getChildren().add(view);
        if (toast.link() != Toast.Link.UNDO) {
            // an Undo lasts as long as its decision is held: the toast that says what was done replaces it
            PauseTransition hide = new PauseTransition(TOAST_TIME);
            hide.setOnFinished(event -> viewModel.dismiss(toast));
            hide.play();
        }
    }

    private void openNewRun() {
        if (!viewModel.mayActProperty().get()) {
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
            // the window behind the dialog dims while it is open: the dialog is what takes the keys now
            Region backdrop = new Region();
            backdrop.getStyleClass().add("modal-backdrop");
            newRunStage.setOnShown(event -> root.getChildren().add(backdrop));
            newRunStage.setOnHidden(event -> root.getChildren().remove(backdrop));
            newRunView.controller().setOnClose(newRunStage::hide);
        }
        viewModel.themeProperty().get().apply(newRunStage.getScene());
        newRun.open();
        newRunStage.show();
        newRunView.controller().focusFirst();
    }

    private void focusList() {
        if (viewModel.sectionProperty().get() == Section.RUNS) {
            runsList.focus();
        } else {
            inboxPaneController.focusList();
        }
    }
}
