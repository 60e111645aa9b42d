package io.countersign.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.service.UserResult;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code users}, {@code users remove} and {@code user set}. */
final class UserCommands {

    private UserCommands() {
    }

    @Command(name = "users", description = "Every user and their roles. Admins only.",
            subcommands = Users.Remove.class)
    static final class Users extends Subcommand {
        @Override
        public Integer call() {
            ArrayNode users = Views.array();
            runtime().users().list(actor()).forEach(user -> users.add(Views.user(user)));
            return print(users);
        }

        @Command(name = "remove", description = "Remove a user and their roles; their decisions and events keep"
                + " their name. The last admin cannot be removed. Admins only.")
        static final class Remove extends Subcommand {
            @Parameters(paramLabel = "NAME", description = "The user.")
            String name;

            @Override
            public Integer call() {
                UserResult result = runtime().users().remove(actor(), name);
                if (result instanceof UserResult.Removed removed) {
                    return print(Views.user(removed.user()).put("result", "removed"));
                }
                if (result instanceof UserResult.NoSuchUser) {
                    throw CliFailure.refused("no user is named \"" + name + "\" (see: countersign users)");
                }
                throw CliFailure.refused(((UserResult.Refused) result).reason());
            }
        }
    }

    @Command(name = "user", description = "Change users.", subcommands = UserSet.SetRoles.class)
    static final class UserSet extends Subcommand {
        @Override
        public Integer call() {
            throw CliFailure.usage("name what to do: user set NAME --roles operator,supervisor,admin,worker");
        }

        @Command(name = "set", description = "Give a user exactly these roles, adding the user if the store does not"
                + " know them. Admins only. On a PostgreSQL store that store init prepared, the login of that name"
                + " joins and leaves the group roles to match.")
        static final class SetRoles extends Subcommand {
            @Parameters(paramLabel = "NAME", description = "The user.")
            String name;

            @Option(names = "--roles", required = true, split = ",", paramLabel = "R,...",
                    description = "operator, supervisor, admin, worker (a worker process's login: carries out"
                            + " decisions, never makes them); \"none\" takes every role.")
            List<String> roles;

            @Option(names = "--create-login", description = "On a PostgreSQL store: create the database login of"
                    + " this name first (with no password; needs CREATEROLE).")
            boolean createLogin;

            @Override
            public Integer call() {
                Set<Role> wanted = roles();
                if (createLogin) {
                    runtime().users().createLogin(actor(), name);
                }
                UserResult result = runtime().users().setRoles(actor(), name, wanted);
                if (result instanceof UserResult.NoSuchUser) {
                    result = runtime().users().add(actor(), name, wanted);
                }
                if (result instanceof UserResult.Refused refused) {
                    throw CliFailure.refused(refused.reason());
                }
                Actor user;
                String what;
                if (result instanceof UserResult.Added added) {
                    user = added.user();
                    what = "added";
                } else if (result instanceof UserResult.Changed changed) {
                    user = changed.user();
                    what = "changed";
                } else {
                    user = ((UserResult.Unchanged) result).user();
                    what = "unchanged";
                }
                return print(Views.user(user).put("result", what));
            }

            private Set<Role> roles() {
                if (roles.size() == 1 && roles.get(0).equalsIgnoreCase("none")) {
                    return EnumSet.noneOf(Role.class);
                }
                Set<Role> parsed = EnumSet.noneOf(Role.class);
                for (String role : roles) {
                    try {
                        parsed.add(Role.valueOf(role.strip().toUpperCase(Locale.ROOT)));
                    } catch (IllegalArgumentException e) {
                        throw CliFailure.usage("\"" + role + "\" is not a role; give operator, supervisor, admin or"
                                + " worker");
                    }
                }
                return parsed;
            }
        }
    }
}
