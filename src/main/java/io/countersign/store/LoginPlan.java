package io.countersign.store;

import io.countersign.engine.Role;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What adopting the logins of a store carried over from Countersign 0.1 does: each stored person keeps their roles
 * under the database login of their name, created where none exists; and when no stored admin has a login, the
 * store's owner becomes an admin, so that somebody can still manage the team.
 *
 * @param storeVersion      the schema version the store came with
 * @param owner             the login that owns the store's tables (the one adopting, when it may)
 * @param ownerBecomesAdmin whether the owner's login is made an admin
 * @param people            every stored person, by name
 */
public record LoginPlan(String storeVersion, String owner, boolean ownerBecomesAdmin, List<Person> people) {
    public LoginPlan {
        Objects.requireNonNull(storeVersion, "storeVersion");
        Objects.requireNonNull(owner, "owner");
        people = List.copyOf(people);
    }

    /**
     * A stored person and the login that becomes theirs, the one of the same name.
     *
     * @param name        the stored name, and the login's
     * @param roles       the roles they keep
     * @param loginExists whether the server has the login already; else adopting creates it ({@link #createLogin})
     */
    public record Person(String name, Set<Role> roles, boolean loginExists) {
        public Person {
            Objects.requireNonNull(name, "name");
            roles = Set.copyOf(roles);
        }

        /** The statement that creates their login: it has no password, the DBA gives one or pg_hba lets them in. */
        public String createLogin() {
            return LoginRoles.createStatement(name);
        }
    }
}
