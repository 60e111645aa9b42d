package io.countersign.service;

import io.countersign.engine.Actor;
import java.util.Locale;
import java.util.stream.Collectors;

/** The one place the service layer checks roles. */
final class Permissions {
    private Permissions() {
    }

    static boolean allows(Actor actor, Operation operation) {
        return operation.allowedFor(actor.roles());
    }

    static void require(Actor actor, Operation operation) {
        if (!allows(actor, operation)) {
            throw new NotPermittedException(operation.name().toLowerCase(Locale.ROOT), refusal(actor, operation));
        }
    }

    static String refusal(Actor actor, Operation operation) {
        String roles = actor.roles().isEmpty() ? "no role"
                : actor.roles().stream().map(r -> r.name().toLowerCase(Locale.ROOT)).sorted()
                .collect(Collectors.joining(", "));
        String needed = operation.allowedRoles().stream().map(r -> r.name().toLowerCase(Locale.ROOT)).sorted()
                .collect(Collectors.joining(" or "));
        return actor.name() + " (" + roles + ") may not " + operation.name().toLowerCase(Locale.ROOT)
                .replace('_', ' ') + "; that needs the role " + needed;
    }
}
