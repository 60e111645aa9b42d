package io.countersign.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.countersign.engine.event.DayCount;
import io.countersign.engine.event.EventCharts;
import io.countersign.engine.event.EventCount;
import io.countersign.engine.event.EventCursor;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventPage;
import io.countersign.engine.event.PageRequest;

/** Keeps the dependency directions of the package map in the README true. */
@AnalyzeClasses(packages = "io.countersign", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    /** The store's plain records that {@code EventService} takes and returns: the console may hold them. */
    private static final Class<?>[] EVENT_QUERY_VALUES = {EventFilter.class, EventPage.class, PageRequest.class,
        EventCursor.class, EventCount.class, DayCount.class, EventCharts.class};

    @ArchTest
    static final ArchRule engineIsPlainJava = noClasses().that().resideInAPackage("io.countersign.engine..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "javafx..", "java.sql..", "javax.sql..", "okhttp3..", "java.net.http..", "com.zaxxer..",
                    "org.flywaydb..", "org.sqlite..", "org.postgresql..", "picocli..", "io.modelcontextprotocol..",
                    "io.countersign.store..", "io.countersign.model..", "io.countersign.tools..",
                    "io.countersign.service..", "io.countersign.console..", "io.countersign.app..")
            .because("the engine defines ports; adapters live outside it and depend inward");

    @ArchTest
    static final ArchRule adaptersDoNotReachUpwards = noClasses().that().resideInAnyPackage(
                    "io.countersign.store..", "io.countersign.model..", "io.countersign.tools..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.countersign.service..", "io.countersign.console..", "io.countersign.app..", "javafx..")
            .because("adapters sit behind the engine's ports and know nothing of the use cases or the screens")
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule serviceHasNoScreens = noClasses().that().resideInAPackage("io.countersign.service..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "io.countersign.console..")
            .because("the console and the command line share the same use cases")
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule consoleHasNoSqlOrAdapters = noClasses().that().resideInAPackage("io.countersign.console..")
            .should().dependOnClassesThat(resideInAnyPackage("java.sql..", "javax.sql..", "io.countersign.store..",
                    "io.countersign.model..", "io.countersign.tools..", "okhttp3..")
                    .and(not(belongToAnyOf(EVENT_QUERY_VALUES))))
            .because("screens talk to the service layer, never to the store or the adapters (the plain values"
                    + " that the event service's methods take and return are part of that layer's API)")
            .allowEmptyShould(true);
}
