package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserServiceTest {
    @TempDir
    Path folder;
    DemoStore demo;
    UserService users;

    @BeforeEach
    void open() {
        demo = new DemoStore(folder);
        users = demo.runtime.users();
    }

    @AfterEach
    void close() {
        demo.close();
    }

    @Test
    void adminAddsAUserWithTheirRoles() {
        assertThat(users.add(demo.admin, "lena", Set.of(Role.SUPERVISOR)))
                .isEqualTo(new UserResult.Added(new Actor("lena", Set.of(Role.SUPERVISOR))));
        assertThat(users.list(demo.admin)).extracting(Actor::name).contains("lena");
    }

    @Test
    void takenNameIsRefused() {
        assertThat(users.add(demo.admin, "maria", Set.of(Role.ADMIN)))
                .isEqualTo(new UserResult.Refused("there already is a user named \"maria\""));
    }

    @Test
    void changedRolesComeBackWithTheRolesBefore() {
        assertThat(users.setRoles(demo.admin, "maria", Set.of(Role.OPERATOR, Role.SUPERVISOR))).isEqualTo(
                new UserResult.Changed(new Actor("maria", Set.of(Role.OPERATOR, Role.SUPERVISOR)),
                        Set.of(Role.OPERATOR)));
    }

    @Test
    void theSameRolesChangeNothing() {
        assertThat(users.setRoles(demo.admin, "maria", Set.of(Role.OPERATOR)))
                .isEqualTo(new UserResult.Unchanged(demo.operator));
    }

    @Test
    void unknownUserIsNamedAsSuch() {
        assertThat(users.setRoles(demo.admin, "zoe", Set.of(Role.OPERATOR))).isEqualTo(new UserResult.NoSuchUser("zoe"));
    }

    @Test
    void takingAdminFromTheLastAdminIsRefusedSayingWhatToDo() {
        assertThat(users.setRoles(demo.admin, demo.admin.name(), Set.of(Role.OPERATOR))).isEqualTo(
                new UserResult.Refused("Cannot take the admin role from " + demo.admin.name() + ": they are the last"
                        + " admin; make another user admin first."));
        assertThat(demo.runtime.user(demo.admin.name()).isAdmin()).isTrue();
    }
}
