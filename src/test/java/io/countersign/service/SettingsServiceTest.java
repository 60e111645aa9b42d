package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.access.SettingChange;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.RemoteDeclaration;
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
import io.countersign.service.SettingRequest.ServerApprovalBound;
import io.countersign.service.SettingRequest.ToolApprovalBound;
import io.countersign.service.SettingRequest.ToolDeclaration;
import io.countersign.service.SettingRequest.ToolEnabled;
import io.countersign.service.ToolSettingView.ApprovalControl;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsServiceTest {
    @TempDir
    Path folder;
    DemoStore demo;
    SettingsService settings;

    @BeforeEach
    void open() {
        demo = new DemoStore(folder);
        settings = demo.runtime.settings();
    }

    @AfterEach
    void close() {
        demo.close();
    }

    private ToolSettingView tool(String name) {
        return settings.tools(demo.admin).stream().filter(view -> view.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void everyToolSaysWhoDecidesItsApproval() {
        assertThat(settings.tools(demo.admin))
                .extracting(ToolSettingView::name, ToolSettingView::approvalBound, ToolSettingView::approvalControl,
                        ToolSettingView::runsUnattended)
                .containsExactly(
                        tuple("fs_list", false, ApprovalControl.NEVER, true),
                        tuple("fs_read", false, ApprovalControl.NEVER, true),
                        tuple("fs_write", true, ApprovalControl.WRITE, false),
                        tuple("fs_delete", true, ApprovalControl.WRITE, false),
                        tuple("web_fetch", true, ApprovalControl.CONFIGURABLE, false),
                        tuple("ask_user", false, ApprovalControl.NEVER, false),
                        tuple("intake_form", false, ApprovalControl.NEVER, false));
        assertThat(tool("ask_user").asksForInput()).isTrue();
        assertThat(ApprovalControl.WRITE.fixedReason()).isEqualTo("write tools always need approval");
        assertThat(ApprovalControl.MARKER.fixedReason()).isEqualTo("the approval marker");
        assertThat(ApprovalControl.REMOTE.configurable()).as("a remote tool may be declared by itself").isTrue();
    }

    @Test
    void configurableToolStopsNeedingApprovalAndJoinsTheUnattendedSet() {
        SettingResult result = settings.change(demo.admin, List.of(new ToolApprovalBound("web_fetch", false)));

        assertThat(result).isInstanceOfSatisfying(SettingResult.Saved.class, saved ->
                assertThat(saved.changes()).extracting(SettingChange::actor, SettingChange::settingKey,
                        SettingChange::newValue).containsExactly(tuple(demo.admin.name(), "approval:web_fetch", "false")));
        assertThat(tool("web_fetch").approvalBound()).isFalse();
        assertThat(tool("web_fetch").runsUnattended()).isTrue();
    }

    @Test
    void writeToolsApprovalIsRefusedWithTheReasonItIsFixed() {
        assertThat(settings.change(demo.admin, List.of(new ToolApprovalBound("fs_write", false))))
                .isEqualTo(new SettingResult.Refused(List.of("the approval of fs_write is fixed (write tools always"
                        + " need approval); it cannot be set per tool")));
        assertThat(tool("fs_write").approvalBound()).isTrue();
    }

    @Test
    void unknownToolIsRefusedNamingTheKnownOnes() {
        assertThat(settings.change(demo.admin, List.of(new ToolEnabled("fs_rm", false))))
                .isInstanceOfSatisfying(SettingResult.Refused.class, refused -> assertThat(refused.reasons())
                        .containsExactly("no tool is named \"fs_rm\"; known tools: fs_list, fs_read, fs_write,"
                                + " fs_delete, web_fetch, ask_user, intake_form"));
    }

    @Test
    void oneImpossibleChangeSavesNoneOfTheOthers() {
        SettingResult result = settings.change(demo.admin, List.of(new ToolEnabled("web_fetch", false),
                new ToolApprovalBound("fs_read", true)));

        assertThat(result).isInstanceOf(SettingResult.Refused.class);
        assertThat(tool("web_fetch").enabled()).isTrue();
        assertThat(settings.changes(demo.admin, 10)).noneMatch(change -> change.settingKey().startsWith("tool_"));
    }

    @Test
    void valueAlreadyInForceSavesNoChange() {
        assertThat(settings.change(demo.admin, List.of(new ToolEnabled("fs_read", true))))
                .isEqualTo(new SettingResult.Saved(List.of()));
    }

    @Test
    void serverDeclarationIsSaved() {
        assertThat(settings.change(demo.admin, List.of(new ServerApprovalBound("docs", false))))
                .isInstanceOfSatisfying(SettingResult.Saved.class, saved -> assertThat(saved.changes())
                        .extracting(SettingChange::settingKey).containsExactly("server_approval_bound:docs"));
    }

    @Test
    void supervisorReadsTheChangesNewestFirst() {
        settings.change(demo.admin, List.of(new ToolEnabled("web_fetch", false)));
        settings.change(demo.admin, List.of(new ToolEnabled("web_fetch", true)));

        assertThat(settings.changes(demo.supervisor, 2)).extracting(SettingChange::settingKey,
                SettingChange::newValue).containsExactly(tuple("tool_enabled:web_fetch", "true"),
                tuple("tool_enabled:web_fetch", "false"));
    }

    @Test
    void previewNamesTheToolsThatJoinOrLeaveTheUnattendedSetAndSavesNothing() {
        SettingPreview preview = settings.preview(demo.admin, List.of(new ToolApprovalBound("web_fetch", false),
                new ToolEnabled("fs_read", false)));

        assertThat(preview.joinUnattended()).containsExactly("web_fetch");
        assertThat(preview.leaveUnattended()).containsExactly("fs_read");
        assertThat(preview.stopApprovalBound()).containsExactly("web_fetch");
        assertThat(preview.becomeApprovalBound()).isEmpty();
        assertThat(tool("web_fetch").approvalBound()).isTrue();
        assertThat(tool("fs_read").enabled()).isTrue();
    }

    @Test
    void previewCountsHowTheRecordedCallsWouldFare() {
        List<ToolInvocationObservation> recorded = demo.runtime.store().runs().recentCalls(1000);
        long reads = recorded.stream().filter(call -> call.toolName().equals("fs_read")).count();

        SettingPreview preview = settings.preview(demo.admin, List.of(new ToolEnabled("fs_read", false)));

        assertThat(reads).isPositive();
        assertThat(preview.calls().sampled()).isEqualTo(recorded.size());
        assertThat(preview.calls().after().refused() - preview.calls().before().refused()).isEqualTo(reads);
        assertThat(preview.calls().before().ran() - preview.calls().after().ran()).isEqualTo(reads);
        assertThat(preview.calls().after().paused()).isEqualTo(preview.calls().before().paused());
    }

    @Test
    void previewSaysWhichToolJoiningTheUnattendedSetWasDeniedRecently() {
        // the store's recorded calls, plus one web_fetch a person denied: what the preview reads them through
        List<ToolInvocationObservation> recorded = new ArrayList<>(
                demo.runtime.store().runs().recentCalls(1000));
        recorded.add(0, new ToolInvocationObservation("web_fetch", ToolInvocationObservation.Outcome.DENIED, null));
        SettingsService withDenial = new DefaultSettingsService(demo.runtime.registry(),
                demo.runtime.store().settings(), limit -> recorded, demo.runtime.store().users());

        SettingPreview preview = withDenial.preview(demo.admin, List.of(new ToolApprovalBound("web_fetch", false)));
        assertThat(preview.deniedJoining()).containsExactly("web_fetch");
        assertThat(settings.preview(demo.admin, List.of(new ToolApprovalBound("web_fetch", false))).deniedJoining())
                .isEmpty();
    }

    @Test
    void previewListsImpossibleChangesAndLeavesThemOut() {
        SettingPreview preview = settings.preview(demo.admin, List.of(new ToolApprovalBound("fs_delete", false)));

        assertThat(preview.refusals()).singleElement().asString().contains("write tools always need approval");
        assertThat(preview.stopApprovalBound()).isEmpty();
    }

    @Test
    void approvalIsRefusedOnAConfigurableToolThatAsksForInput() {
        SettingsService withForm = new DefaultSettingsService(ToolRegistry.of(new ConfigurableForm()),
                demo.runtime.store().settings(), demo.runtime.store().runs(), demo.runtime.store().users());

        assertThat(withForm.change(demo.admin, List.of(new ToolApprovalBound("survey", true))))
                .isEqualTo(new SettingResult.Refused(List.of("survey asks for typed input, so it cannot also need"
                        + " approval: a turn cannot wait for both")));
    }

    @Test
    void declaringAnUndeclaredServerApprovalBoundIsPreviewedAndSavedLikeAnyOtherChange() {
        // a remote write tool under the name of the demo's recorded reads, so that those calls are judged as its
        SettingsService withRemote = new DefaultSettingsService(ToolRegistry.of(new RemoteWrite("fs_read", "docs")),
                demo.runtime.store().settings(), demo.runtime.store().runs(), demo.runtime.store().users());
        long calls = demo.runtime.store().runs().recentCalls(1000).stream()
                .filter(call -> call.toolName().equals("fs_read")).count();
        assertThat(withRemote.tools(demo.admin)).singleElement().satisfies(view -> {
            assertThat(view.serverDeclaration()).isEqualTo(ApprovalDeclaration.NOT_DECLARED);
            assertThat(view.approvalBound()).isFalse();
            assertThat(view.runsUnattended()).isTrue();
        });

        SettingPreview preview = withRemote.preview(demo.admin, List.of(new ServerApprovalBound("docs", true)));

        assertThat(calls).isPositive();
        assertThat(preview.refusals()).isEmpty();
        assertThat(preview.leaveUnattended()).containsExactly("fs_read");
        assertThat(preview.becomeApprovalBound()).containsExactly("fs_read");
        assertThat(preview.calls().before()).isEqualTo(new SettingPreview.CallCounts(0, (int) calls, 0));
        assertThat(preview.calls().after()).isEqualTo(new SettingPreview.CallCounts((int) calls, 0, 0));
        assertThat(withRemote.change(demo.admin, List.of(new ServerApprovalBound("docs", true))))
                .isInstanceOfSatisfying(SettingResult.Saved.class, saved -> assertThat(saved.changes())
                        .extracting(SettingChange::settingKey, SettingChange::oldValue, SettingChange::newValue)
                        .containsExactly(tuple("server_approval_bound:docs", null, "true")));
        assertThat(withRemote.tools(demo.admin).get(0).serverDeclaration())
                .isEqualTo(ApprovalDeclaration.APPROVAL_BOUND);
    }

    private SettingsService withTools(RemoteWrite... tools) {
        return new DefaultSettingsService(ToolRegistry.of(tools), demo.runtime.store().settings(),
                demo.runtime.store().runs(), demo.runtime.store().users());
    }

    @Test
    void aToolsOwnDeclarationWinsOverItsServersAndNamesWhoMadeIt() {
        SettingsService remote = withTools(new RemoteWrite("files.write_file", "files"),
                new RemoteWrite("files.read_file", "files"));
        remote.change(demo.admin, List.of(new ServerApprovalBound("files", false)));

        SettingResult result = remote.change(demo.admin, List.of(new ToolDeclaration("files.write_file",
                ApprovalDeclaration.APPROVAL_BOUND)));

        assertThat(result).isInstanceOfSatisfying(SettingResult.Saved.class, saved -> assertThat(saved.changes())
                .extracting(SettingChange::actor, SettingChange::settingKey, SettingChange::oldValue,
                        SettingChange::newValue)
                .containsExactlyInAnyOrder(tuple(demo.admin.name(), "tool_approval_bound:files.write_file", null, "true")));
        List<ToolSettingView> tools = remote.tools(demo.admin);
        assertThat(tools).extracting(ToolSettingView::name, ToolSettingView::approvalBound,
                        ToolSettingView::runsUnattended, view -> view.declaration().describe())
                .containsExactlyInAnyOrder(
                        tuple("files.write_file", true, false,
                                "approval-bound (declared for this tool by " + demo.admin.name() + ")"),
                        tuple("files.read_file", false, true,
                                "not approval-bound (from its server's declaration by " + demo.admin.name() + ")"));
    }

    @Test
    void aToolOfAnUndeclaredServerWithoutADeclarationOfItsOwnRunsWithoutApproval() {
        SettingsService remote = withTools(new RemoteWrite("files.write_file", "files"),
                new RemoteWrite("files.move_file", "files"));
        remote.change(demo.admin, List.of(new ToolDeclaration("files.write_file", ApprovalDeclaration.APPROVAL_BOUND)));

        assertThat(remote.tools(demo.admin)).extracting(ToolSettingView::name, ToolSettingView::approvalBound,
                        view -> view.declaration().describe())
                .containsExactlyInAnyOrder(
                        tuple("files.write_file", true, "approval-bound (declared for this tool by "
                                + demo.admin.name() + ")"),
                        tuple("files.move_file", false,
                                "not declared: runs without approval (from its server's declaration)"));
    }

    @Test
    void aRemoteToolsApprovalSetPerToolIsItsOwnDeclaration() {
        SettingsService remote = withTools(new RemoteWrite("files.read_file", "files"));

        assertThat(remote.change(demo.admin, List.of(new ToolApprovalBound("files.read_file", true))))
                .isInstanceOfSatisfying(SettingResult.Saved.class, saved -> assertThat(saved.changes())
                        .extracting(SettingChange::settingKey).containsExactly("tool_approval_bound:files.read_file"));
        assertThat(remote.tools(demo.admin).get(0).approvalBound()).isTrue();
    }

    @Test
    void followingTheServerAgainTakesTheToolsOwnDeclarationAwayAndIsRecorded() {
        SettingsService remote = withTools(new RemoteWrite("files.write_file", "files"));
        remote.change(demo.admin, List.of(new ServerApprovalBound("files", false),
                new ToolDeclaration("files.write_file", ApprovalDeclaration.APPROVAL_BOUND)));

        SettingResult result = remote.change(demo.admin, List.of(new ToolDeclaration("files.write_file",
                ApprovalDeclaration.NOT_DECLARED)));

        assertThat(result).isInstanceOfSatisfying(SettingResult.Saved.class, saved -> assertThat(saved.changes())
                .extracting(SettingChange::settingKey, SettingChange::oldValue, SettingChange::newValue)
                .containsExactly(tuple("tool_approval_bound:files.write_file", "true", null)));
        assertThat(remote.tools(demo.admin).get(0)).satisfies(view -> {
            assertThat(view.approvalBound()).isFalse();
            assertThat(view.declaration().source()).isEqualTo(RemoteDeclaration.Source.SERVER);
        });
    }

    @Test
    void previewOfAToolsDeclarationNamesTheOneToolThatLeavesTheUnattendedSet() {
        SettingsService remote = withTools(new RemoteWrite("files.write_file", "files"),
                new RemoteWrite("files.read_file", "files"));

        SettingPreview preview = remote.preview(demo.admin, List.of(new ToolDeclaration("files.write_file",
                ApprovalDeclaration.APPROVAL_BOUND)));

        assertThat(preview.refusals()).isEmpty();
        assertThat(preview.leaveUnattended()).containsExactly("files.write_file");
        assertThat(preview.becomeApprovalBound()).containsExactly("files.write_file");
        assertThat(remote.tools(demo.admin)).noneMatch(ToolSettingView::approvalBound);
    }

    @Test
    void declaringAToolAServerDoesNotHaveNamesTheServersTools() {
        SettingsService remote = withTools(new RemoteWrite("files.write_file", "files"));

        assertThat(remote.change(demo.admin, List.of(new ToolDeclaration("files.rm", ApprovalDeclaration.APPROVAL_BOUND),
                new ToolDeclaration("wiki.edit", ApprovalDeclaration.APPROVAL_BOUND))))
                .isEqualTo(new SettingResult.Refused(List.of(
                        "server files has no tool named \"files.rm\"; its tools: files.write_file",
                        "no tool is named \"wiki.edit\": no tools of a server \"wiki\" are imported here (is it"
                                + " added, enabled and reachable? see: countersign servers test wiki)")));
    }

    @Test
    void aLocalToolIsNotDeclared() {
        assertThat(settings.change(demo.admin, List.of(new ToolDeclaration("fs_write",
                ApprovalDeclaration.NOT_APPROVAL_BOUND))))
                .isEqualTo(new SettingResult.Refused(List.of("fs_write is a local tool: only a remote tool is"
                        + " declared; set its approval with: tool set fs_write --approval-bound true|false")));
    }

    @Test
    void onlyAnAdminDeclaresATool() {
        SettingsService remote = withTools(new RemoteWrite("files.write_file", "files"));

        assertThatThrownBy(() -> remote.change(demo.supervisor, List.of(new ToolDeclaration("files.write_file",
                ApprovalDeclaration.APPROVAL_BOUND)))).isInstanceOf(NotPermittedException.class);
        assertThat(remote.tools(demo.admin).get(0).approvalBound()).isFalse();
    }

    /** A write tool imported from a remote server. */
    private static final class RemoteWrite extends FixedTool implements RemoteTool {
        private final String serverName;

        RemoteWrite(String name, String serverName) {
            super(name, "Writes through the server " + serverName + ".",
                    new ObjectMapper().createObjectNode().put("type", "object"), ToolEffect.WRITE,
                    DataClass.PUBLIC_CONTENT, serverName);
            this.serverName = serverName;
        }

        @Override
        public String serverName() {
            return serverName;
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            return ToolResult.ok("written");
        }
    }

    /** A form whose approval an admin could configure, were it not for the input it asks for. */
    private static final class ConfigurableForm implements ConfigurableApproval, RequiresInput {
        @Override
        public boolean approvalByDefault() {
            return false;
        }

        @Override
        public List<InputField> inputFields() {
            return List.of(InputField.text("answer", "Answer", "", true));
        }

        @Override
        public String name() {
            return "survey";
        }

        @Override
        public String description() {
            return "Asks the person one question.";
        }

        @Override
        public ObjectNode argumentSchema() {
            return new ObjectMapper().createObjectNode().put("type", "object");
        }

        @Override
        public ToolEffect effect() {
            return ToolEffect.READ;
        }

        @Override
        public DataClass dataClass() {
            return DataClass.PUBLIC_CONTENT;
        }

        @Override
        public String group() {
            return "interaction";
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            return ToolResult.ok(request.arguments().toString());
        }
    }
}
