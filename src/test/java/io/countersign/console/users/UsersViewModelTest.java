package io.countersign.console.users;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Messages;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.service.UserService;
import java.lang.reflect.Proxy;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class UsersViewModelTest {

    private static UsersViewModel form() {
        UserService none = (UserService) Proxy.newProxyInstance(UserService.class.getClassLoader(),
                new Class<?>[] {UserService.class}, (proxy, method, arguments) -> {
                    throw new AssertionError("a view-model test called the service: " + method.getName());
                });
        return new UsersViewModel(none, Actor.of("root", Role.ADMIN), work -> {
            throw new AssertionError("the form asked the service although it was incomplete");
        }, Messages.forLocale(Locale.ENGLISH));
    }

    @Test
    void aNewUserStartsAsOperator() {
        UsersViewModel form = form();

        assertThat(form.newRoleProperty(Role.OPERATOR).get()).isTrue();
        assertThat(form.newRoleProperty(Role.SUPERVISOR).get()).isFalse();
        assertThat(form.newRoleProperty(Role.ADMIN).get()).isFalse();
    }

    @Test
    void aBlankNameIsRefusedUnderTheName() {
        UsersViewModel form = form();
        form.newNameProperty().set("   ");

        form.add();

        assertThat(form.nameErrorProperty().get()).isEqualTo("Type the user’s name.");
        assertThat(form.rolesErrorProperty().get()).isEmpty();
    }

    @Test
    void noRoleIsRefusedUnderTheRoles() {
        UsersViewModel form = form();
        form.newNameProperty().set("kim");
        form.newRoleProperty(Role.OPERATOR).set(false);

        form.add();

        assertThat(form.rolesErrorProperty().get())
                .isEqualTo("Pick at least one role: a user without a role can do nothing.");
        assertThat(form.nameErrorProperty().get()).isEmpty();
    }

    @Test
    void typingClearsTheNameError() {
        UsersViewModel form = form();
        form.add();

        form.newNameProperty().set("k");

        assertThat(form.nameErrorProperty().get()).isEmpty();
    }
}
