package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.access.ToolAccessDecision;
import io.countersign.engine.access.ToolAccessPolicy;
import io.countersign.engine.access.ToolDenialReason;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolAccessPolicyTest {
    private final List<GovernanceEvent> events = new ArrayList<>();
    private final TestTools.Recording secret = new TestTools.Recording("vault_peek", ToolEffect.READ,
            DataClass.SECRET_ADJACENT, "files");
    private final TestTools.Recording adminTool = TestTools.read("admin_tool");
    private final TestTools.Recording webTool = new TestTools.Recording("web_get", ToolEffect.READ,
            DataClass.PUBLIC_CONTENT, "web");
    private ToolSettings settings = ToolSettings.defaults();
    private final ToolAccessPolicy policy;
    private final Actor operator = Actor.of("maria", Role.OPERATOR);
    private final Actor admin = Actor.of("root", Role.ADMIN);

    ToolAccessPolicyTest() {
        adminTool.adminOnly = true;
        ToolRegistry registry = ToolRegistry.of(TestTools.read("fs_read"), secret, adminTool, webTool);
        policy = new ToolAccessPolicy(registry, () -> settings, events::add, Clock.systemUTC(), IdGenerator.random());
    }

    private AgentConfiguration agent(TrustZone zone) {
        return AgentConfiguration.of("helper", new ModelConfiguration("m", "openai", "gpt", null, zone, null, null,
                null, null), List.of("files"));
    }

    @Test
    void unknownToolIsNotRegistered() {
        assertThat(policy.explain(List.of("nope"), agent(TrustZone.LOCAL), operator))
                .containsExactly(new ToolAccessDecision("nope", ToolDenialReason.NOT_REGISTERED));
    }

    @Test
    void disabledToolOrGroupIsRefused() {
        settings = settings.withToolEnabled("fs_read", false);
        assertThat(policy.check("fs_read", agent(TrustZone.LOCAL), operator).denialReason())
                .isEqualTo(ToolDenialReason.TOOL_DISABLED);
        settings = ToolSettings.defaults().withGroupEnabled("files", false);
        assertThat(policy.check("fs_read", agent(TrustZone.LOCAL), operator).denialReason())
                .isEqualTo(ToolDenialReason.TOOL_DISABLED);
    }

    @Test
    void adminOnlyToolNeedsAnAdmin() {
        assertThat(policy.check("admin_tool", agent(TrustZone.LOCAL), operator).denialReason())
                .isEqualTo(ToolDenialReason.REQUIRES_ADMIN);
        assertThat(policy.check("admin_tool", agent(TrustZone.LOCAL), admin).permitted()).isTrue();
    }

    @Test
    void toolOutsideTheConfigurationsGroupsIsRefusedUnlessAllowListed() {
        assertThat(policy.check("web_get", agent(TrustZone.LOCAL), operator).denialReason())
                .isEqualTo(ToolDenialReason.CONFIGURATION_GROUP);
        assertThat(policy.check("web_get", agent(TrustZone.LOCAL).withAllowedTools(List.of("web_get")), operator)
                .permitted()).isTrue();
    }

    @Test
    void dataClassAboveTheZonesCeilingIsRefused() {
        assertThat(policy.check("vault_peek", agent(TrustZone.LOCAL), operator).permitted()).isTrue();
        assertThat(policy.check("vault_peek", agent(TrustZone.PRIVATE_HOSTED), operator).denialReason())
                .isEqualTo(ToolDenialReason.TRUST_ZONE);
        assertThat(policy.check("fs_read", agent(TrustZone.EXTERNAL_EU), operator).permitted()).isTrue();
        assertThat(policy.check("fs_read", agent(TrustZone.EXTERNAL_GLOBAL), operator).denialReason())
                .isEqualTo(ToolDenialReason.TRUST_ZONE);
    }

    @Test
    void zoneCeilingsFollowTheSpecification() {
        assertThat(TrustZone.LOCAL.ceiling()).isEqualTo(DataClass.SECRET_ADJACENT);
        assertThat(TrustZone.PRIVATE_HOSTED.ceiling()).isEqualTo(DataClass.SYSTEM_DIAGNOSTICS);
        assertThat(TrustZone.EXTERNAL_EU.ceiling()).isEqualTo(DataClass.INTERNAL_CONFIGURATION);
        assertThat(TrustZone.EXTERNAL_GLOBAL.ceiling()).isEqualTo(DataClass.EDITOR_CONTENT);
    }

    @Test
    void theFirstFailingGateIsTheReportedOne() {
        settings = settings.withToolEnabled("vault_peek", false);
        assertThat(policy.check("vault_peek", agent(TrustZone.EXTERNAL_GLOBAL), operator).denialReason())
                .isEqualTo(ToolDenialReason.TOOL_DISABLED);
    }

    @Test
    void filterOfferableKeepsOrderAndRecordsOneEventPerDenial() {
        List<String> offered = policy.filterOfferable(List.of("vault_peek", "nope", "fs_read", "admin_tool"),
                agent(TrustZone.PRIVATE_HOSTED), operator, "run-1");
        assertThat(offered).containsExactly("fs_read");
        assertThat(events).extracting(GovernanceEvent::toolName, GovernanceEvent::reasonCode)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("vault_peek", "trustZone"),
                        org.assertj.core.groups.Tuple.tuple("nope", "notRegistered"),
                        org.assertj.core.groups.Tuple.tuple("admin_tool", "requiresAdmin"));
        assertThat(events).allSatisfy(event -> {
            assertThat(event.type()).isEqualTo(EventType.TOOL_DENIED);
            assertThat(event.runId()).isEqualTo("run-1");
            assertThat(event.agentConfiguration()).isEqualTo("helper");
            assertThat(event.actor()).isEqualTo("maria");
            assertThat(event.model()).isEqualTo("m");
        });
    }

    @Test
    void explainRecordsNothing() {
        policy.explain(List.of("nope", "vault_peek"), agent(TrustZone.EXTERNAL_GLOBAL), operator);
        assertThat(events).isEmpty();
    }
}
