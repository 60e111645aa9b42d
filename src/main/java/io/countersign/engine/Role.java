package io.countersign.engine;

/** What a person, or a worker process's login, may do (see the role table of the specification). */
public enum Role {
    OPERATOR,
    SUPERVISOR,
    ADMIN,
    /**
     * A worker process's login: claims queued runs and carries out decisions others committed, under their
     * identities, but never decides, starts runs or changes settings.
     */
    WORKER
}
