package io.countersign.console;

import io.countersign.console.card.ApprovalCardController;
import io.countersign.console.card.ApprovalCardViewModel;
import io.countersign.console.card.CardSession;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.FxController;
import io.countersign.console.common.FxmlLoaderFactory.Loaded;
import io.countersign.console.common.FxmlLoaderFactory;
import io.countersign.console.common.FxmlView;
import io.countersign.console.common.LiveClock;
import io.countersign.console.common.Messages;
import io.countersign.console.common.PaneWidths;
import io.countersign.console.denials.AuditStatus;
import io.countersign.console.denials.DenialsController;
import io.countersign.console.insights.InsightsController;
import io.countersign.console.insights.InsightsViewModel;
import io.countersign.console.denials.DenialsViewModel;
import io.countersign.console.inbox.BatchViewModel;
import io.countersign.console.inbox.InboxController;
import io.countersign.console.inbox.InboxSelection;
import io.countersign.console.inbox.InboxViewModel;
import io.countersign.console.inbox.SettleViewModel;
import io.countersign.console.input.AskedQuestionsViewModel;
import io.countersign.console.input.InputCardController;
import io.countersign.console.input.InputCardViewModel;
import io.countersign.console.main.DecisionSending;
import io.countersign.console.main.MainWindowController;
import io.countersign.console.main.MainWindowViewModel;
import io.countersign.console.main.RoleWatch;
import io.countersign.console.newrun.NewRunController;
import io.countersign.console.newrun.NewRunViewModel;
import io.countersign.console.notify.DesktopNotices;
import io.countersign.console.notify.DesktopNotifier;
import io.countersign.console.settings.ToolSettingsController;
import io.countersign.console.settings.ToolSettingsViewModel;
import io.countersign.console.settings.GatewayProfilesController;
import io.countersign.console.settings.GatewayProfilesViewModel;
import io.countersign.console.settings.GrantsController;
import io.countersign.console.settings.GrantsViewModel;
import io.countersign.console.settings.RulesController;
import io.countersign.console.settings.RulesViewModel;
import io.countersign.console.settings.TelemetryController;
import io.countersign.console.settings.TelemetryViewModel;
import io.countersign.console.settings.WebhooksController;
import io.countersign.console.settings.WebhooksViewModel;
import io.countersign.console.timeline.RunsViewModel;
import io.countersign.console.timeline.TimelineController;
import io.countersign.console.timeline.TimelineViewModel;
import io.countersign.console.users.UsersController;
import io.countersign.console.users.UsersViewModel;
import io.countersign.engine.Actor;
import io.countersign.engine.port.TelemetrySettings;
import io.countersign.service.BatchDecisions;
import io.countersign.service.RunService;
import java.time.Clock;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;

/**
 * The console's composition: builds the view models over the service, loads the views with their controllers,
 * and puts the main window on a stage. Every service call runs on the given executor.
 */
public final class ConsoleWindow {
    /** The window's size on first show: readable at 1280×800 and up. */
    public static final double WIDTH = 1280;
    public static final double HEIGHT = 800;
    /** How long an approval or denial waits for Undo before it is sent. */
    public static final java.time.Duration UNDO_TIME = java.time.Duration.ofSeconds(5);

    private final MainWindowViewModel viewModel;
    private final MainWindowController controller;
    private final Scene scene;
    private final DenialsViewModel denials;
    private final Stage stage;
    private final PaneWidths paneWidths;
    private final AskedQuestionsViewModel asked;
    private final DesktopNotices notices;
    private final SettleViewModel settle;

    private ConsoleWindow(MainWindowViewModel viewModel, MainWindowController controller, Scene scene,
                          DenialsViewModel denials, Stage stage, PaneWidths paneWidths,
                          AskedQuestionsViewModel asked, DesktopNotices notices, SettleViewModel settle) {
        this.viewModel = viewModel;
        this.controller = controller;
        this.scene = scene;
        this.denials = denials;
        this.stage = stage;
        this.paneWidths = paneWidths;
        this.asked = asked;
        this.notices = notices;
        this.settle = settle;
    }

    /** Builds the console for a context and shows it on the stage at its default size. */
    public static ConsoleWindow open(Stage stage, ConsoleContext context, Executor executor, Clock clock) {
        return open(stage, context, executor, clock, Optional.empty());
    }

    /**
     * Builds the console for a context and shows it on the stage.
     *
     * @param executor where service calls run; never the JavaFX thread
     * @param clock    the clock waiting times are measured with
     * @param placement where the window stood when it last closed; a place on no screen of this desk is not taken
     */
    public static ConsoleWindow open(Stage stage, ConsoleContext context, Executor executor, Clock clock,
                                     Optional<WindowPlacement> placement) {
        // before the views build their controls, so that JavaFX's own default stylesheet is never parsed
        context.theme().applyToApplication();
        Messages messages = Messages.forLocale(Locale.getDefault());
        LiveClock liveClock = new LiveClock(clock);
        ConnectionState connection = new ConnectionState();
        RunService service = context.services().runs();
        Actor actor = context.actor();

        InboxViewModel inbox = new InboxViewModel(service, actor, executor, liveClock, messages, connection);
        ApprovalCardViewModel approval = new ApprovalCardViewModel(
                new CardSession(service, actor, executor, liveClock, messages, connection));
        InputCardViewModel input = new InputCardViewModel(
                new CardSession(service, actor, executor, liveClock, messages, connection),
                context.services().schemas());
        TimelineViewModel timeline = new TimelineViewModel(service, actor, executor, messages, connection,
                clock.getZone());
        RunsViewModel runs = new RunsViewModel(service, actor, executor, messages, connection, clock.getZone());
        NewRunViewModel newRun = new NewRunViewModel(service, actor, executor, messages);
        ToolSettingsViewModel settings = new ToolSettingsViewModel(context.services().settings(), actor, executor,
                messages, clock.getZone());
        UsersViewModel users = new UsersViewModel(context.services().users(), actor, executor, messages);
        WebhooksViewModel webhooks = new WebhooksViewModel(context.services().webhooks(), actor, executor, messages);
        TelemetryViewModel telemetry = new TelemetryViewModel(context.services().settings(), actor, executor,
                messages, TelemetrySettings.setIn(System.getenv()));
        GatewayProfilesViewModel gatewayProfiles = new GatewayProfilesViewModel(context.services().gatewayProfiles(),
                context.services().servers(), actor, executor, messages);
        GrantsViewModel grants = new GrantsViewModel(context.services().grants(), service, actor, executor, messages,
                clock.getZone());
        MainWindowViewModel main = new MainWindowViewModel(inbox, approval, input, timeline, runs, newRun, actor,
                context.store(), context.theme(), messages, liveClock, connection,
                new DecisionSending(service, executor, DecisionSending.Delays.fx(), UNDO_TIME));
        DenialsViewModel denials = new DenialsViewModel(context.services().events(), actor, executor, messages,
                connection, clock, main::showRun);
        RulesViewModel rules = new RulesViewModel(context.services().rules(), actor, executor, messages, clock,
                main::showRun);
        main.watchRoles(new RoleWatch(context.services().users(), actor, executor));
        AskedQuestionsViewModel asked = new AskedQuestionsViewModel(context.services().asked(),
                context.services().schemas(), actor, executor, messages);
        DesktopNotices notices = new DesktopNotices(service, actor, inbox, liveClock, messages, executor);
        // the inbox is fetched while the views load and the window renders for the first time
        main.start();
        asked.start();
        SettleViewModel settle = new SettleViewModel(service, context.services().execution(), actor, executor,
                messages);
        settle.start();

        Map<Class<? extends FxController>, Supplier<? extends FxController>> controllers = new HashMap<>();
        BatchViewModel batch = new BatchViewModel(new BatchDecisions(service), actor, executor, messages,
                new InboxSelection(inbox.visibleRuns()), inbox::refresh);
        controllers.put(InboxController.class, () -> new InboxController(inbox, asked, messages, batch, settle));
        controllers.put(ApprovalCardController.class, () -> new ApprovalCardController(approval, messages));
        controllers.put(InputCardController.class, () -> new InputCardController(input, messages));
        controllers.put(TimelineController.class, () -> new TimelineController(timeline));
        controllers.put(NewRunController.class, () -> new NewRunController(newRun));
        controllers.put(ToolSettingsController.class, () -> new ToolSettingsController(settings, messages));
        controllers.put(UsersController.class, () -> new UsersController(users, messages));
        controllers.put(WebhooksController.class, () -> new WebhooksController(webhooks, messages));
        controllers.put(TelemetryController.class, () -> new TelemetryController(telemetry));
        controllers.put(RulesController.class, () -> new RulesController(rules, messages));
        controllers.put(GrantsController.class, () -> new GrantsController(grants, messages));
        controllers.put(GatewayProfilesController.class,
                () -> new GatewayProfilesController(gatewayProfiles, messages));
        PaneWidths paneWidths = new PaneWidths();
        placement.ifPresent(kept -> {
            paneWidths.listProperty().set(kept.listWidth());
            paneWidths.denialsDetailProperty().set(kept.denialsDetailWidth());
        });
        InsightsViewModel insights = new InsightsViewModel(context.services().decisionStats(), actor, executor,
                messages, clock);
        controllers.put(InsightsController.class, () -> new InsightsController(insights));
        controllers.put(DenialsController.class,
                () -> new DenialsController(denials, new AuditStatus(context.services().audit(), actor, executor,
                        messages, clock.getZone()), messages, paneWidths.denialsDetailProperty()));
        FxmlLoaderFactory details = new FxmlLoaderFactory(controllers, messages.bundle());
        controllers.put(MainWindowController.class,
                () -> new MainWindowController(main, messages, details, newRun, paneWidths, notices.mutedProperty()));
        Loaded<MainWindowController> window =
                new FxmlLoaderFactory(controllers, messages.bundle()).load(FxmlView.MAIN_WINDOW);

        Parent root = window.root();
        Scene scene = new Scene(root, WIDTH, HEIGHT);
        main.themeProperty().addListener((o, was, now) -> now.apply(scene));
        context.theme().apply(scene);
        stage.titleProperty().bind(main.titleProperty());
        main.windowFocusedProperty().bind(stage.focusedProperty());
        notices.windowFocusedProperty().bind(stage.focusedProperty());
        stage.setMinWidth(WindowPlacement.MIN_WIDTH);
        stage.setMinHeight(WindowPlacement.MIN_HEIGHT);
        stage.setScene(scene);
        stage.sizeToScene();
        placement.filter(ConsoleWindow::onAScreen).ifPresent(kept -> {
            stage.setX(kept.x());
            stage.setY(kept.y());
            stage.setWidth(kept.width());
            stage.setHeight(kept.height());
        });
        stage.show();
        return new ConsoleWindow(main, window.controller(), scene, denials, stage, paneWidths, asked, notices,
                settle);
    }

    /** Whether the window's title bar would show on a screen: a screen since unplugged takes its windows with it. */
    private static boolean onAScreen(WindowPlacement placement) {
        return !Screen.getScreensForRectangle(placement.x(), placement.y(), placement.width(), 40).isEmpty();
    }

    /** Where the window stands now and how its panes are divided, to restore at the next start. */
    public WindowPlacement placement() {
        return new WindowPlacement(stage.getX(), stage.getY(), Math.max(stage.getWidth(), WindowPlacement.MIN_WIDTH),
                Math.max(stage.getHeight(), WindowPlacement.MIN_HEIGHT), paneWidths.listProperty().get(),
                paneWidths.denialsDetailProperty().get());
    }

    /**
     * Announces the cards that start waiting, are escalated or near their deadline on the desktop while the
     * window is in the background; a click on a notification brings the window forward with the card open.
     */
    public void notifyThrough(DesktopNotifier desktop) {
        notices.deliverTo(desktop, runId -> {
            stage.setIconified(false);
            stage.toFront();
            stage.requestFocus();
            viewModel.openCard(runId);
        });
    }

    /** Whether this person gets desktop notices, and whether the window has the focus. */
    public DesktopNotices notices() {
        return notices;
    }

    /** Stops listening to the service and stops the window's clock. */
    public void close() {
        notices.stop();
        asked.stop();
        settle.stop();
        viewModel.stop();
        controller.stop();
    }

    /** The window's view model, for whoever drives the console without a mouse. */
    public MainWindowViewModel viewModel() {
        return viewModel;
    }

    /** The servers' questions as the inbox shows them. */
    public AskedQuestionsViewModel asked() {
        return asked;
    }

    /** The denial browser's view model, for whoever drives the console without a mouse. */
    public DenialsViewModel denials() {
        return denials;
    }

    public Scene scene() {
        return scene;
    }
}
