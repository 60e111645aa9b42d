package io.countersign.runtime;

import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.model.ChatModels;
import io.countersign.service.AgentService;
import io.countersign.service.AuditService;
import io.countersign.service.DecisionStatsService;
import io.countersign.service.DefaultAgentService;
import io.countersign.service.DefaultAuditService;
import io.countersign.service.DefaultDecisionStatsService;
import io.countersign.service.DefaultEventService;
import io.countersign.service.DefaultExecutionService;
import io.countersign.service.DefaultRunService;
import io.countersign.service.DefaultServerService;
import io.countersign.service.DefaultSettingsService;
import io.countersign.service.DefaultUserService;
import io.countersign.service.EventService;
import io.countersign.service.ExecutionService;
import io.countersign.service.ServerService;
import io.countersign.service.SettingsService;
import io.countersign.service.DefaultRuleService;
import io.countersign.service.RuleService;
import java.util.List;
import java.util.Set;
import io.countersign.service.UserService;
import io.countersign.store.Store;
import io.countersign.telemetry.LiveTelemetry;
import io.countersign.tools.mcp.SecretResolver;
import java.time.Clock;

/** The use cases beside the run service, over the same store, tools and run service. */
record UseCases(EventService events, AuditService audit, SettingsService settings, UserService users,
                AgentService agents, ExecutionService execution, ServerService servers,
                DecisionStatsService decisionStats, WebhookWiring webhooks, RuleService rules) {

    static UseCases over(Store store, ToolRegistry registry, DefaultRunService runs, ChatModels models,
                         SharedHttpClient http, LiveTelemetry telemetry, Clock clock, IdGenerator ids,
                         List<String> fixedRules) {
        return new UseCases(new DefaultEventService(store.events(), store.runs(), store.users()),
                new DefaultAuditService(store.audit()),
                new DefaultSettingsService(registry, store.settings(), store.runs(), store.users()),
                new DefaultUserService(store.users()),
                new DefaultAgentService(store.configurations(), registry, store.servers(), models::create,
                        store.users()),
                new DefaultExecutionService(runs, store.runs(), store.runs(), store.users(), store.changes(), clock,
                        ids),
                new DefaultServerService(store.servers(), SecretResolver.environment(), store.users()),
                new DefaultDecisionStatsService(store.decisionStats(), store.users(), clock),
                new WebhookWiring(store, http, telemetry, clock),
                new DefaultRuleService(store.settings(), store.runs(), store.configurations(), registry,
                        CountersignRuntime.CONDITIONS, Set.copyOf(fixedRules), store.users(), clock));
    }
}
