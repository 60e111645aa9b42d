package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.port.ActorDirectory;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one place the service layer checks roles. An instance checks the roles the directory gives the person now,
 * not the ones they had when they signed in: a role taken away in another process is refused on the next
 * operation. The static checks are for an actor already read ({@link #current}).
 */
final class Permissions {
    private final ActorDirectory directory;

    Permissions(ActorDirectory directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** The person with the roles they hold now; a name the directory no longer knows holds none. */
    Actor current(Actor actor) {
        return directory.find(actor.name()).orElseGet(() -> new Actor(actor.name(), Set.of()));
    }

    /** Checks the operation against the roles the person holds now, and returns them with those roles. */
    Actor requireNow(Actor actor, Operation operation) {
        Actor now = current(actor);
        require(now, operation);
        return now;
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
