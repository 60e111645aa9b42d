package io.countersign.console.settings;

import io.countersign.console.common.Messages;
import io.countersign.console.common.ScreenController;
import io.countersign.console.common.ShownText;
import io.countersign.engine.agent.ApprovalQuorum;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.declarative.RecordedCall;
import io.countersign.service.RuleService.RuleSummary;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javafx.animation.PauseTransition;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * Wires the rules screen: the list of saved rules (a click opens one in the editor), the editor whose condition is
 * checked once typing pauses, What-if over a chosen window with the calls it found (a click opens one), and Save,
 * which asks for the note before it sends the rule.
 */
public final class RulesController implements ScreenController {
    private static final javafx.util.Duration TYPING_PAUSE = javafx.util.Duration.millis(300);

    private final RulesViewModel viewModel;
    private final Messages messages;

    @FXML
    private HBox problemBox;
    @FXML
    private Label problem;
    @FXML
    private Label status;
    @FXML
    private TableView<RuleSummary> ruleTable;
    @FXML
    private TableColumn<RuleSummary, String> ruleNameColumn;
    @FXML
    private TableColumn<RuleSummary, String> ruleActionColumn;
    @FXML
    private TableColumn<RuleSummary, Number> ruleHitsColumn;
    @FXML
    private TableColumn<RuleSummary, String> ruleEnabledColumn;
    @FXML
    private Button newRule;
    @FXML
    private TextField ruleId;
    @FXML
    private CheckBox ruleEnabled;
    @FXML
    private TextArea ruleCondition;
    @FXML
    private Label conditionProblem;
    @FXML
    private Label conditionFine;
    @FXML
    private RadioButton actionDeny;
    @FXML
    private RadioButton actionAsk;
    @FXML
    private Label approvalsLabel;
    @FXML
    private Spinner<Integer> ruleApprovals;
    @FXML
    private Label reasonLabel;
    @FXML
    private TextField ruleReason;
    @FXML
    private Label explainLabel;
    @FXML
    private TextField ruleExplain;
    @FXML
    private Label explainDeLabel;
    @FXML
    private TextField ruleExplainDe;
    @FXML
    private TextField ruleAgents;
    @FXML
    private TextField ruleProfiles;
    @FXML
    private Button whatIf;
    @FXML
    private Button saveRule;
    @FXML
    private VBox whatIfBox;
    @FXML
    private Label whatIfSummary;
    @FXML
    private Label whatIfAgents;
    @FXML
    private Label whatIfTools;
    @FXML
    private ComboBox<Duration> whatIfWindow;
    @FXML
    private Label whatIfListed;
    @FXML
    private TableView<RecordedCall> whatIfCalls;
    @FXML
    private TableColumn<RecordedCall, String> callRunColumn;
    @FXML
    private TableColumn<RecordedCall, String> callAgentColumn;
    @FXML
    private TableColumn<RecordedCall, String> callToolColumn;
    @FXML
    private TableColumn<RecordedCall, String> callTimeColumn;
    @FXML
    private VBox openedBox;
    @FXML
    private Label openedTitle;
    @FXML
    private Button openRun;
    @FXML
    private Label openedArguments;
    @FXML
    private VBox noteBox;
    @FXML
    private TextField ruleNote;
    @FXML
    private Button cancelNote;
    @FXML
    private Button confirmSave;
    @FXML
    private Button saveAnyway;

    public RulesController(RulesViewModel viewModel, Messages messages) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    @FXML
    private void initialize() {
        ShownText.bind(problemBox, problem, status, viewModel.feedback());

        ruleTable.setItems(viewModel.rules());
        ruleNameColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().rule().identifier()));
        ruleActionColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(action(cell.getValue().rule())));
        ruleHitsColumn.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue().hits()));
        ruleEnabledColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(
                messages.get(cell.getValue().rule().enabled() ? "rules.on" : "rules.off")));
        ruleTable.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (now != null) {
                viewModel.edit(now.rule());
            }
        });
        newRule.setOnAction(event -> {
            ruleTable.getSelectionModel().clearSelection();
            viewModel.startNew();
            ruleId.requestFocus();
        });

        ruleId.textProperty().bindBidirectional(viewModel.identifierProperty());
        ruleEnabled.selectedProperty().bindBidirectional(viewModel.enabledProperty());
        ruleCondition.textProperty().bindBidirectional(viewModel.conditionProperty());
        PauseTransition typing = new PauseTransition(TYPING_PAUSE);
        typing.setOnFinished(event -> viewModel.checkCondition());
        ruleCondition.textProperty().addListener((o, was, now) -> typing.playFromStart());
        ShownText.bind(conditionProblem, viewModel.conditionProblemProperty());
        ShownText.bind(conditionFine, viewModel.conditionFineProperty());

        ToggleGroup action = new ToggleGroup();
        actionDeny.setToggleGroup(action);
        actionAsk.setToggleGroup(action);
        actionDeny.setSelected(viewModel.denyProperty().get());
        actionAsk.setSelected(!viewModel.denyProperty().get());
        viewModel.denyProperty().addListener((o, was, deny) -> (deny ? actionDeny : actionAsk).setSelected(true));
        actionDeny.selectedProperty().addListener((o, was, now) -> viewModel.denyProperty().set(now));
        ruleApprovals.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, ApprovalQuorum.MOST));
        ruleApprovals.getValueFactory().valueProperty().bindBidirectional(viewModel.approvalsProperty());
        for (Node asking : List.of(approvalsLabel, ruleApprovals)) {
            asking.visibleProperty().bind(viewModel.denyProperty().not());
            asking.managedProperty().bind(asking.visibleProperty());
        }
        for (Node denying : List.of(reasonLabel, ruleReason, explainLabel, ruleExplain, explainDeLabel,
                ruleExplainDe)) {
            denying.visibleProperty().bind(viewModel.denyProperty());
            denying.managedProperty().bind(denying.visibleProperty());
        }
        ruleReason.textProperty().bindBidirectional(viewModel.reasonProperty());
        ruleExplain.textProperty().bindBidirectional(viewModel.explanationProperty());
        ruleExplainDe.textProperty().bindBidirectional(viewModel.explanationGermanProperty());
        ruleAgents.textProperty().bindBidirectional(viewModel.agentsProperty());
        ruleProfiles.textProperty().bindBidirectional(viewModel.profilesProperty());

        whatIf.disableProperty().bind(viewModel.feedback().busyProperty());
        whatIf.setOnAction(event -> viewModel.tryOut());
        ShownText.bind(whatIfSummary, viewModel.whatIfProperty());
        ShownText.bind(whatIfAgents, viewModel.whatIfAgentsProperty());
        ShownText.bind(whatIfTools, viewModel.whatIfToolsProperty());
        whatIfBox.visibleProperty().bind(viewModel.whatIfProperty().isNotEmpty());
        whatIfBox.managedProperty().bind(whatIfBox.visibleProperty());
        whatIfWindow.getItems().setAll(RulesViewModel.WINDOWS);
        whatIfWindow.setConverter(new StringConverter<>() {
            @Override
            public String toString(Duration window) {
                return window == null ? "" : messages.get("rules.whatIf.window", window.toDays());
            }

            @Override
            public Duration fromString(String text) {
                throw new UnsupportedOperationException("the window is picked, not typed");
            }
        });
        whatIfWindow.valueProperty().bindBidirectional(viewModel.windowProperty());
        calls();

        saveRule.disableProperty().bind(viewModel.feedback().busyProperty().or(viewModel.noteAskedProperty())
                .or(viewModel.saveWaitingProperty()));
        saveRule.setOnAction(event -> viewModel.askNote());
        // the note is asked for now, or once the condition's check answers
        viewModel.noteAskedProperty().addListener((o, was, asked) -> {
            if (asked) {
                ruleNote.requestFocus();
            }
        });
        noteBox.visibleProperty().bind(viewModel.noteAskedProperty());
        noteBox.managedProperty().bind(noteBox.visibleProperty());
        ruleNote.textProperty().bindBidirectional(viewModel.noteProperty());
        ruleNote.setOnAction(event -> viewModel.save());
        confirmSave.disableProperty().bind(viewModel.feedback().busyProperty());
        confirmSave.setOnAction(event -> viewModel.save());
        cancelNote.setOnAction(event -> viewModel.closeNote());
        saveAnyway.visibleProperty().bind(viewModel.refusesEverythingProperty());
        saveAnyway.managedProperty().bind(saveAnyway.visibleProperty());
        saveAnyway.disableProperty().bind(viewModel.feedback().busyProperty());
        saveAnyway.setOnAction(event -> viewModel.saveAnyway());
    }

    /** The calls the what-if found: a click opens one, its arguments beside a link to its run. */
    private void calls() {
        ShownText.bind(whatIfListed, viewModel.whatIfListedProperty());
        whatIfCalls.setItems(viewModel.whatIfCalls());
        whatIfCalls.visibleProperty().bind(Bindings.isNotEmpty(viewModel.whatIfCalls()));
        whatIfCalls.managedProperty().bind(whatIfCalls.visibleProperty());
        callRunColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(
                messages.shortRunId(cell.getValue().runId())));
        callAgentColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().agent()));
        callToolColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().tool()));
        callTimeColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(viewModel.time(cell.getValue())));
        whatIfCalls.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> viewModel.open(now));
        openedBox.visibleProperty().bind(viewModel.openedCallProperty().isNotNull());
        openedBox.managedProperty().bind(openedBox.visibleProperty());
        openedTitle.textProperty().bind(viewModel.openedTitleProperty());
        openedArguments.textProperty().bind(viewModel.openedArgumentsProperty());
        openRun.setOnAction(event -> viewModel.openRun());
    }

    private String action(DeclarativeRule rule) {
        if (rule.action() instanceof DeclarativeRule.Action.Deny) {
            return messages.get("rules.action.denyShort");
        }
        return messages.get("rules.action.askShort", ((DeclarativeRule.Action.Ask) rule.action()).approvals());
    }

    @Override
    public void shown() {
        viewModel.load();
    }
}
