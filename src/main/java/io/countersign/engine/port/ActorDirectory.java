package io.countersign.engine.port;

import io.countersign.engine.Actor;
import java.util.Optional;

/** Port: the people known by name, with their roles. */
@FunctionalInterface
public interface ActorDirectory {

    Optional<Actor> find(String name);
}
