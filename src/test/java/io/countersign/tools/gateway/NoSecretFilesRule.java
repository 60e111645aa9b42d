package io.countersign.tools.gateway;

import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.invocation.PreApprovalInvocationRule;
import io.countersign.engine.invocation.ToolInvocationContext;

/**
 * A deployment's own pre-approval rule, as a plug-in adds one through {@code ServiceLoader}: no call may name a
 * path with "secret" in it. The gateway test puts it on the gateway's class path only.
 */
public final class NoSecretFilesRule implements PreApprovalInvocationRule {
    @Override
    public String identifier() {
        return "test.no.secret.files";
    }

    @Override
    public ToolInvocationDecision decide(ToolInvocationContext context) {
        String path = context.arguments().path("path").asText("");
        return path.contains("secret") ? ToolInvocationDecision.deny("secret_path", "The path " + path
                + " names a secret, which no call may touch.") : ToolInvocationDecision.allow();
    }
}
