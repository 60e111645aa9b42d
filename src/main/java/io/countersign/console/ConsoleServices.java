package io.countersign.console;

import io.countersign.engine.tool.SchemaValidator;
import io.countersign.service.AskedInputs;
import io.countersign.service.AuditService;
import io.countersign.service.DecisionStatsService;
import io.countersign.service.EventService;
import io.countersign.service.ExecutionService;
import io.countersign.service.GatewayProfiles;
import io.countersign.service.Grants;
import io.countersign.service.RuleService;
import io.countersign.service.RunService;
import io.countersign.service.ServerService;
import io.countersign.service.SettingsService;
import io.countersign.service.UserService;
import io.countersign.service.WebhookService;
import java.util.Objects;
import java.util.Optional;

/**
 * The use cases the console's screens call: runs for operators; events, the audit chain and how long decisions
 * take for supervisors; tool settings, users, webhooks, MCP server records and gateway profiles for admins; the
 * standing grants (absent when the store keeps none); the questions servers ask during this process's calls; the
 * schema validator a form checks typed values with before it sends them; settling the runs whose call's outcome is
 * unknown; the declarative rules admins write. Each service checks the acting person's
 * roles itself; the console only hides what they may not use.
 */
public record ConsoleServices(RunService runs, EventService events, AuditService audit, SettingsService settings,
                               UserService users, AskedInputs asked, DecisionStatsService decisionStats,
                               WebhookService webhooks, Optional<Grants> grants, ServerService servers,
                               GatewayProfiles gatewayProfiles, SchemaValidator schemas,
                               ExecutionService execution, RuleService rules) {
    public ConsoleServices {
        Objects.requireNonNull(runs, "runs");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(audit, "audit");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(users, "users");
        Objects.requireNonNull(asked, "asked");
        Objects.requireNonNull(decisionStats, "decisionStats");
        Objects.requireNonNull(webhooks, "webhooks");
        Objects.requireNonNull(grants, "grants");
        Objects.requireNonNull(servers, "servers");
        Objects.requireNonNull(gatewayProfiles, "gatewayProfiles");
        Objects.requireNonNull(schemas, "schemas");
        Objects.requireNonNull(execution, "execution");
        Objects.requireNonNull(rules, "rules");
    }

    /** The same services with another run service in front, such as one that watches which thread calls it. */
    public ConsoleServices withRuns(RunService replacement) {
        return new ConsoleServices(replacement, events, audit, settings, users, asked, decisionStats, webhooks,
                grants, servers, gatewayProfiles, schemas, execution, rules);
    }
}
