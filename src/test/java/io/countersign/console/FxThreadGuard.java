package io.countersign.console;

import io.countersign.service.AuditService;
import io.countersign.service.DecisionStatsService;
import io.countersign.service.EventService;
import io.countersign.service.ExecutionService;
import io.countersign.service.RuleService;
import io.countersign.service.RunService;
import io.countersign.service.ServerService;
import io.countersign.service.SettingsService;
import io.countersign.service.UserService;
import io.countersign.service.Grants;
import io.countersign.service.WebhookService;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.application.Platform;

/**
 * Wraps the real services and notes every call that arrives on the JavaFX thread, where a store call would
 * freeze the window. Subscribing to changes is exempt: it only registers a listener.
 */
final class FxThreadGuard {
    private final List<String> onFxThread = new ArrayList<>();
    private final List<String> calls = new ArrayList<>();
    private volatile Consumer<String> beforeCall = method -> {
    };

    /** Every service of the console behind the guard. */
    ConsoleServices wrap(ConsoleServices services) {
        return new ConsoleServices(wrap(RunService.class, services.runs()),
                wrap(EventService.class, services.events()), wrap(AuditService.class, services.audit()),
                wrap(SettingsService.class, services.settings()),
                wrap(UserService.class, services.users()), services.asked(),
                wrap(DecisionStatsService.class, services.decisionStats()),
                wrap(WebhookService.class, services.webhooks()),
                services.grants().map(grants -> wrap(Grants.class, grants)),
                wrap(ServerService.class, services.servers()), services.gatewayProfiles(), services.schemas(),
                wrap(ExecutionService.class, services.execution()), wrap(RuleService.class, services.rules()));
    }

    private <T> T wrap(Class<T> type, T service) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(),
                new Class<?>[] {type}, (proxy, method, arguments) -> {
                    if (method.getDeclaringClass() == type) {
                        note(method);
                    }
                    try {
                        return method.invoke(service, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }));
    }

    private void note(Method method) {
        if (method.getName().equals("onChange")) {
            return;
        }
        synchronized (this) {
            calls.add(method.getName());
            if (Platform.isFxApplicationThread()) {
                onFxThread.add(method.getName());
            }
        }
        beforeCall.accept(method.getName());
    }

    /** Something to do just before the service sees a call, such as another process deciding first. */
    void beforeEachCall(Consumer<String> action) {
        this.beforeCall = action;
    }

    /** The service calls made on the JavaFX thread, by method name. */
    synchronized List<String> callsOnFxThread() {
        return List.copyOf(onFxThread);
    }

    /** Every service call made, by method name. */
    synchronized List<String> calls() {
        return List.copyOf(calls);
    }
}
