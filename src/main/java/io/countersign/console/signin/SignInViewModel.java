package io.countersign.console.signin;

import io.countersign.console.ConsoleContext;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The sign-in dialog's state: the store URL and login the server refused (or the remembered ones), the password
 * the person types, and why the last try was refused. The password goes to the opening once per try, off the
 * JavaFX thread, and is cleared from the field and the array it was handed in as soon as the try is over.
 */
public final class SignInViewModel {
    /** Opens the store as a login; throws {@link SignInRequired} when the server refuses it. */
    @FunctionalInterface
    public interface Attempt {
        ConsoleContext signIn(String url, String user, char[] password);
    }

    /** What a successful sign-in opened, and as whom: the URL and user are remembered, the password is not. */
    public record SignedIn(ConsoleContext context, String url, String user) {
    }

    private final Attempt attempt;
    private final Executor executor;
    private final Messages messages;
    private final Consumer<SignedIn> signedIn;
    private final StringProperty url = new SimpleStringProperty(this, "url", "");
    private final StringProperty user = new SimpleStringProperty(this, "user", "");
    private final StringProperty password = new SimpleStringProperty(this, "password", "");
    private final StringProperty problem = new SimpleStringProperty(this, "problem", "");
    private final BooleanProperty busy = new SimpleBooleanProperty(this, "busy");
    private final BooleanBinding canSignIn;

    /**
     * @param required what the server refused, which fills the dialog
     * @param signedIn called on the JavaFX thread once the store is open
     */
    public SignInViewModel(SignInRequired required, Attempt attempt, Executor executor, Messages messages,
                           Consumer<SignedIn> signedIn) {
        this.attempt = Objects.requireNonNull(attempt, "attempt");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.signedIn = Objects.requireNonNull(signedIn, "signedIn");
        url.set(required.url());
        user.set(required.user());
        // a password found in pgpass or a reference that the server refused is worth saying; none found is not
        if (required.refusal() == SignInRequired.Refusal.WRONG_PASSWORD) {
            problem.set(refusedSentence(required));
        }
        canSignIn = Bindings.createBooleanBinding(() -> !busy.get() && !url.get().isBlank()
                && !user.get().isBlank() && !password.get().isEmpty(), busy, url, user, password);
    }

    /** Tries the login once in the background; does nothing while a try is under way or a field is empty. */
    public void signIn() {
        if (!canSignIn.get()) {
            return;
        }
        String tryUrl = url.get().strip();
        String tryUser = user.get().strip();
        char[] typed = password.get().toCharArray();
        // the field forgets it at once; the array is wiped when the try is over
        password.set("");
        problem.set("");
        busy.set(true);
        Tasks.create(() -> {
                    try {
                        return attempt.signIn(tryUrl, tryUser, typed);
                    } finally {
                        Arrays.fill(typed, '\0');
                    }
                })
                .onSuccess(context -> signedIn.accept(new SignedIn(context, tryUrl, tryUser)))
                .onError(failure -> {
                    busy.set(false);
                    problem.set(failure instanceof SignInRequired refused ? refusedSentence(refused)
                            : messageOf(failure));
                })
                .runOnce(executor);
    }

    private String refusedSentence(SignInRequired refused) {
        return refused.refusal() == SignInRequired.Refusal.WRONG_PASSWORD
                ? messages.get("signIn.wrongPassword", refused.user())
                : messages.get("signIn.noPassword", refused.user());
    }

    private static String messageOf(Throwable failure) {
        return failure.getMessage() == null || failure.getMessage().isBlank() ? failure.toString()
                : failure.getMessage();
    }

    public StringProperty urlProperty() {
        return url;
    }

    public StringProperty userProperty() {
        return user;
    }

    public StringProperty passwordProperty() {
        return password;
    }

    public ReadOnlyStringProperty problemProperty() {
        return problem;
    }

    public BooleanProperty busyProperty() {
        return busy;
    }

    public BooleanBinding canSignInProperty() {
        return canSignIn;
    }
}
