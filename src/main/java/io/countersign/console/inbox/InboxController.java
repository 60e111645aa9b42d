package io.countersign.console.inbox;

import io.countersign.console.common.FxController;
import io.countersign.console.common.Messages;
import io.countersign.console.input.AskedQuestionsView;
import io.countersign.console.input.AskedQuestionsViewModel;
import io.countersign.service.InboxOrder;
import io.countersign.engine.port.WaitingRun;
import java.util.Objects;
import javafx.beans.property.ObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * Wires the inbox view to its view model: the list, the search box, the three filters, the batch and the runs to
 * settle.
 */
public final class InboxController implements FxController {
    private static final String ANY = "";

    private final InboxViewModel viewModel;
    private final AskedQuestionsViewModel asked;
    private final Messages messages;

    @FXML
    private Label header;
    @FXML
    private AskedQuestionsView askedQuestions;
    @FXML
    private SettleView toSettle;
    @FXML
    private TextField search;
    @FXML
    private ComboBox<String> agentFilter;
    @FXML
    private ComboBox<String> toolFilter;
    @FXML
    private ComboBox<InboxKind> kindFilter;
    @FXML
    private ComboBox<InboxOrder> sortChoice;
    @FXML
    private ListView<WaitingRun> list;
    @FXML
    private VBox noMatch;
    @FXML
    private Hyperlink clearFilters;
    @FXML
    private VBox batchPanel;
    @FXML
    private Label batchTitle;
    @FXML
    private VBox batchLines;
    @FXML
    private Button batchConfirm;
    @FXML
    private Button batchBack;
    @FXML
    private VBox batchBar;
    @FXML
    private Label batchCount;
    @FXML
    private TextField batchReason;
    @FXML
    private Label batchProblem;
    @FXML
    private Button approveSelected;
    @FXML
    private Button denySelected;
    @FXML
    private Button clearSelection;

    private final BatchViewModel batch;
    private final SettleViewModel settle;

    public InboxController(InboxViewModel viewModel, AskedQuestionsViewModel asked, Messages messages,
                           BatchViewModel batch, SettleViewModel settle) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.asked = Objects.requireNonNull(asked, "asked");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.batch = Objects.requireNonNull(batch, "batch");
        this.settle = Objects.requireNonNull(settle, "settle");
    }

    @FXML
    private void initialize() {
        header.textProperty().bind(viewModel.headerProperty());
        askedQuestions.show(asked, messages);
        toSettle.show(settle, messages);
        search.textProperty().bindBidirectional(viewModel.searchProperty());
        search.setOnKeyPressed(event -> {
            if (event.getCode() == KeyCode.ENTER || event.getCode() == KeyCode.DOWN) {
                list.requestFocus();
                if (viewModel.selectedProperty().get() == null) {
                    viewModel.selectNext();
                }
                event.consume();
            }
        });

        wireChoice(agentFilter, viewModel.agents(), viewModel.agentProperty(), messages.get("inbox.filter.anyAgent"));
        wireChoice(toolFilter, viewModel.tools(), viewModel.toolProperty(), messages.get("inbox.filter.anyTool"));
        kindFilter.getItems().setAll(InboxKind.values());
        kindFilter.setConverter(named("inbox.filter.kind."));
        kindFilter.valueProperty().bindBidirectional(viewModel.kindProperty());
        sortChoice.getItems().setAll(InboxOrder.values());
        sortChoice.setConverter(named("inbox.sort."));
        sortChoice.valueProperty().bindBidirectional(viewModel.orderProperty());

        list.setItems(viewModel.visibleRuns());
        list.setCellFactory(view -> new InboxCell(viewModel, messages, batch.selection()));
        BatchView.wire(new BatchView.Controls(list, batchPanel, batchTitle, batchLines, batchConfirm, batchBack,
                batchBar, batchCount, batchReason, batchProblem, approveSelected, denySelected, clearSelection),
                batch, messages);
        // an empty inbox says so in the detail pane; here only a filter that hides everything needs words
        noMatch.visibleProperty().bind(viewModel.filteredProperty());
        clearFilters.setOnAction(event -> viewModel.clearFilters());
        list.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (now != null && now != viewModel.selectedProperty().get()) {
                viewModel.select(now);
            }
        });
        viewModel.selectedProperty().addListener((o, was, now) -> showSelection(now));
        // a refresh that replaced rows can drop the list's selection; the view model's selection stands
        viewModel.visibleRuns().addListener((ListChangeListener<WaitingRun>) change ->
                showSelection(viewModel.selectedProperty().get()));
    }

    private void showSelection(WaitingRun run) {
        if (run == null) {
            list.getSelectionModel().clearSelection();
            return;
        }
        int index = list.getItems().indexOf(run);
        if (index < 0) {
            list.getSelectionModel().clearSelection();
            return;
        }
        if (list.getSelectionModel().getSelectedIndex() != index) {
            list.getSelectionModel().clearAndSelect(index);
        }
        list.getFocusModel().focus(index);
        scrollIntoView(index);
    }

    private void scrollIntoView(int index) {
        // scroll only when the row is out of sight, so the list does not jump while the person works down it
        var flow = list.lookup(".virtual-flow");
        if (flow instanceof VirtualFlow<?> virtualFlow) {
            var first = virtualFlow.getFirstVisibleCell();
            var last = virtualFlow.getLastVisibleCell();
            if (first != null && last != null && index >= first.getIndex() && index <= last.getIndex()) {
                return;
            }
        }
        list.scrollTo(Math.max(0, index - 1));
    }

    private static void wireChoice(ComboBox<String> box, ObservableList<String> choices,
                                   ObjectProperty<String> chosen, String anyText) {
        ObservableList<String> items = FXCollections.observableArrayList(ANY);
        items.addAll(choices);
        choices.addListener((ListChangeListener<String>) change -> {
            String keep = chosen.get();
            items.setAll(ANY);
            items.addAll(choices);
            box.setValue(keep == null ? ANY : keep);
        });
        box.setItems(items);
        box.setConverter(new StringConverter<>() {
            @Override
            public String toString(String value) {
                return value == null || value.equals(ANY) ? anyText : value;
            }

            @Override
            public String fromString(String text) {
                return text;
            }
        });
        box.setValue(ANY);
        box.valueProperty().addListener((o, was, now) -> chosen.set(now == null || now.equals(ANY) ? null : now));
        chosen.addListener((o, was, now) -> box.setValue(now == null ? ANY : now));
    }

    /** Puts the focus into the search box (Ctrl+F). */
    public void focusSearch() {
        search.requestFocus();
        search.selectAll();
    }

    /** Puts the focus on the list (Esc from the search box). */
    public void focusList() {
        list.requestFocus();
    }

    /** The cards picked for a batch, which X and Ctrl+A change. */
    public InboxSelection selection() {
        return batch.selection();
    }

    /** Whether the search box has the focus. */
    public boolean searchFocused() {
        return search.isFocused();
    }

    /** Shows each choice of a list that cannot be typed in by its bundle text, {@code prefix + NAME}. */
    private <E extends Enum<E>> StringConverter<E> named(String prefix) {
        return new StringConverter<>() {
            @Override
            public String toString(E choice) {
                return choice == null ? "" : messages.get(prefix + choice.name());
            }

            @Override
            public E fromString(String text) {
                throw new UnsupportedOperationException("the list is not editable");
            }
        };
    }
}
