package io.countersign.engine;

import java.util.Optional;

/** Port: the people known by name, with their roles. */
@FunctionalInterface
public interface ActorDirectory {

    Optional<Actor> find(String name);
}
