package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.PageRequest;
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

    @Test
    void removedUserIsGoneWithTheirRolesWhileTheirDecisionKeepsTheirName() {
        demo.operatorDeniesTheReleaseNotes("Wrong file");

        assertThat(users.remove(demo.admin, "maria")).isEqualTo(new UserResult.Removed(demo.operator));

        assertThat(users.list(demo.admin)).extracting(Actor::name).doesNotContain("maria");
        assertThat(demo.runtime.store().users().find("maria")).isEmpty();
        EventFilter byMaria = new EventFilter(null, null, Set.of(), null, null, null, null, "maria", null, null);
        assertThat(demo.runtime.events().page(demo.admin, byMaria,
                new PageRequest(PageRequest.Direction.FIRST, null, 10)).events()).isNotEmpty();
        assertThat(demo.runtime.settings().changes(demo.admin, 1).get(0))
                .satisfies(change -> {
                    assertThat(change.settingKey()).isEqualTo("user_roles:maria");
                    assertThat(change.oldValue()).isEqualTo("operator");
                    assertThat(change.newValue()).isNull();
                });
    }

    @Test
    void removingTheLastAdminIsRefusedAlsoForThemselves() {
        assertThat(users.remove(demo.admin, demo.admin.name())).isEqualTo(new UserResult.Refused("Cannot remove "
                + demo.admin.name() + ": they are the last admin; make another user admin first."));
        assertThat(demo.runtime.user(demo.admin.name()).isAdmin()).isTrue();
    }

    @Test
    void anAdminMayRemoveThemselvesWhileAnotherAdminRemains() {
        users.setRoles(demo.admin, "sam", Set.of(Role.ADMIN));

        assertThat(users.remove(demo.admin, demo.admin.name())).isInstanceOf(UserResult.Removed.class);
        assertThat(users.list(demo.runtime.user("sam"))).extracting(Actor::name).contains("sam")
                .doesNotContain(demo.admin.name());
    }

    @Test
    void unknownUserToRemoveIsNamedAsSuch() {
        assertThat(users.remove(demo.admin, "zoe")).isEqualTo(new UserResult.NoSuchUser("zoe"));
    }

    @Test
    void onlyAdminsRemoveUsers() {
        assertThatThrownBy(() -> users.remove(demo.operator, "sam")).isInstanceOf(NotPermittedException.class);
        assertThat(demo.runtime.store().users().find("sam")).isPresent();
    }
}
