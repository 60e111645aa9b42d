package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A second process on the same store: an admin sets a user's roles through the user service, prints what
 * happened and ends. Arguments: the store, the admin, the user, the roles (comma-separated, {@code -} for none).
 */
final class RoleRevoker {
    private RoleRevoker() {
    }

    public static void main(String[] args) {
        Set<Role> roles = "-".equals(args[3]) ? EnumSet.noneOf(Role.class) : Arrays.stream(args[3].split(","))
                .map(code -> Role.valueOf(code.toUpperCase(Locale.ROOT)))
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Role.class)));
        try (Store store = Store.open(StoreLocation.resolve(args[0], Map.of()))) {
            // As a console signs in: the first user of a new store (the warm-up's) is made admin.
            Actor admin = store.users().ensureUser(args[1]);
            UserResult result = new DefaultUserService(store.users()).setRoles(admin, args[2], roles);
            System.out.println(result instanceof UserResult.Changed ? "changed" : "not changed: " + result);
        }
    }
}
