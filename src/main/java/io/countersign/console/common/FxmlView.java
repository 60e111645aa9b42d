package io.countersign.console.common;

/** The console's FXML views, each named after its screen, loaded from {@code /fxml/} on the class path. */
public enum FxmlView {
    MAIN_WINDOW("main_window.fxml"),
    INBOX("inbox.fxml"),
    APPROVAL_CARD("approval_card.fxml"),
    INPUT_CARD("input_card.fxml"),
    TIMELINE("timeline.fxml"),
    NEW_RUN("new_run.fxml"),
    DENIALS("denials.fxml"),
    INSIGHTS("insights.fxml"),
    TOOL_SETTINGS("tool_settings.fxml"),
    RULES("rules.fxml"),
    TELEMETRY("telemetry.fxml"),
    USERS("users.fxml"),
    SIGN_IN("sign_in.fxml");

    private final String fileName;

    FxmlView(String fileName) {
        this.fileName = fileName;
    }

    /** The class path resource of the view, such as {@code /fxml/inbox.fxml}. */
    public String resource() {
        return "/fxml/" + fileName;
    }
}
