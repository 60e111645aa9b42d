package io.countersign.engine;

/** What a person may do at the console (see the role table of the specification). */
public enum Role {
    OPERATOR,
    SUPERVISOR,
    ADMIN
}
