package io.countersign.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.ConfigurableApproval;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.FixedTool;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import java.util.List;

/** Tools the built-in set lacks, registered beside it to show the settings screen's other kinds of row. */
final class AdminTestTools {
    /** Two tools of one remote server, judged on its declaration. */
    static final String SERVER = "docs-server";
    static final String REMOTE_SEARCH = "docs_search";
    static final String REMOTE_FETCH = "docs_fetch";
    /** A configurable tool that asks for input: the service refuses to make it need approval. */
    static final String CONFIGURABLE_FORM = "survey_form";

    private static final ObjectNode SCHEMA = new ObjectMapper().createObjectNode().put("type", "object");

    private AdminTestTools() {
    }

    static void registerRemote(ToolRegistry registry) {
        registry.register(new Remote(REMOTE_SEARCH, "Searches the documentation server.", ToolEffect.READ));
        registry.register(new Remote(REMOTE_FETCH, "Fetches a page from the documentation server.",
                ToolEffect.READ));
    }

    static void registerConfigurableForm(ToolRegistry registry) {
        registry.register(new ConfigurableForm());
    }

    private static final class Remote extends FixedTool implements RemoteTool {
        Remote(String name, String description, ToolEffect effect) {
            super(name, description, SCHEMA, effect, DataClass.EDITOR_CONTENT, "docs");
        }

        @Override
        public String serverName() {
            return SERVER;
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            return ToolResult.ok("no documents");
        }
    }

    private static final class ConfigurableForm extends FixedTool implements RequiresInput, ConfigurableApproval {
        ConfigurableForm() {
            super(CONFIGURABLE_FORM, "Asks the person to rate the answer.", SCHEMA, ToolEffect.READ,
                    DataClass.PUBLIC_CONTENT, "interaction");
        }

        @Override
        public boolean approvalByDefault() {
            return false;
        }

        @Override
        public List<InputField> inputFields() {
            return List.of(InputField.text("rating", "Rating", "From 1 to 5", true));
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            return ToolResult.ok("rated " + request.arguments().path("rating").asText());
        }
    }
}
