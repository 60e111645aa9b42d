package io.countersign.console.settings;

import io.countersign.engine.grant.Grant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** One standing grant as the settings screen lists it: for whom, what it covers, who made it, how far it went. */
public record GrantRow(String id, String agent, String tool, String scope, String grantedBy, int uses,
                       String expiry, String state) {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    static GrantRow of(Grant grant, ZoneId zone, String thisRun, String live, String agentOff) {
        String scope = grant.scope().value().isEmpty() ? grant.scope().kind()
                : grant.scope().kind() + ": " + grant.scope().value();
        String expiry = grant.expiresAt() == null ? thisRun : WHEN.format(grant.expiresAt().atZone(zone));
        return new GrantRow(grant.id(), grant.agent(), grant.tool(), scope, grant.grantedBy(), grant.uses(), expiry,
                agentOff == null ? live : agentOff);
    }
}
