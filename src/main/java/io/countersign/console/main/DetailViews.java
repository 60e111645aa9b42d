package io.countersign.console.main;

import io.countersign.console.card.ApprovalCardController;
import io.countersign.console.common.FxmlLoaderFactory.Loaded;
import io.countersign.console.common.FxmlLoaderFactory;
import io.countersign.console.common.FxmlView;
import io.countersign.console.input.InputCardController;
import io.countersign.console.timeline.TimelineController;
import java.util.Objects;
import javafx.scene.Node;

/** The views of the detail pane (the two cards and the timeline), each loaded once, when first needed. */
final class DetailViews {
    private final FxmlLoaderFactory views;
    private final MainWindowViewModel viewModel;
    private Loaded<ApprovalCardController> approval;
    private Loaded<InputCardController> input;
    private Loaded<TimelineController> timeline;

    DetailViews(FxmlLoaderFactory views, MainWindowViewModel viewModel) {
        this.views = Objects.requireNonNull(views, "views");
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
    }

    /** The view of a detail; {@code empty} for none. */
    Node rootOf(Detail detail, Node empty) {
        if (detail instanceof Detail.ApprovalCard) {
            return approval().root();
        } else if (detail instanceof Detail.InputCard) {
            return input().root();
        } else if (detail instanceof Detail.Timeline) {
            return timeline().root();
        }
        return empty;
    }

    /** Loads every view not loaded yet. */
    void loadAll() {
        approval();
        input();
        timeline();
    }

    Loaded<ApprovalCardController> approval() {
        if (approval == null) {
            approval = views.load(FxmlView.APPROVAL_CARD);
            approval.controller().setOnOpenTimeline(viewModel::openTimeline);
        }
        return approval;
    }

    private Loaded<InputCardController> input() {
        if (input == null) {
            input = views.load(FxmlView.INPUT_CARD);
            input.controller().setOnOpenTimeline(viewModel::openTimeline);
        }
        return input;
    }

    private Loaded<TimelineController> timeline() {
        if (timeline == null) {
            timeline = views.load(FxmlView.TIMELINE);
            timeline.controller().setOnBack(viewModel::back);
        }
        return timeline;
    }
}
