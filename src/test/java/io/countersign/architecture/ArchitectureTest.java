package io.countersign.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Keeps the dependency directions of the package map in the README true, with no exception by name. */
@AnalyzeClasses(packages = "io.countersign", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest
    static final ArchRule packagesFormNoCycles = slices().matching("io.countersign.(*)..").should().beFreeOfCycles()
            .because("each package depends only on those below it in the package map");

    @ArchTest
    static final ArchRule engineLayersFormNoCycles = slices().matching("io.countersign.engine.(*)..").should()
            .beFreeOfCycles()
            .because("inside the engine, values sit at the bottom, the ports above them, the policies above the ports"
                    + " and the loop on top, as the package map in the README names them");

    @ArchTest
    static final ArchRule engineIsPlainJava = noClasses().that().resideInAPackage("io.countersign.engine..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "javafx..", "java.sql..", "javax.sql..", "okhttp3..", "java.net.http..", "com.zaxxer..",
                    "org.flywaydb..", "org.sqlite..", "org.postgresql..", "picocli..", "io.modelcontextprotocol..",
                    "com.networknt..", "io.opentelemetry..", "dev.cel..", "com.google.protobuf..", "com.google.common..",
                    "io.countersign.store..", "io.countersign.telemetry..", "io.countersign.model..",
                    "io.countersign.tools..", "io.countersign.cel..", "io.countersign.service..",
                    "io.countersign.console..", "io.countersign.cli..",
                    "io.countersign.runtime..", "io.countersign.app..")
            .because("the engine defines ports; adapters live outside it and depend inward");

    @ArchTest
    static final ArchRule adaptersDoNotReachUpwards = noClasses().that().resideInAnyPackage(
                    "io.countersign.store..", "io.countersign.model..", "io.countersign.tools..",
                    "io.countersign.webhook..", "io.countersign.telemetry..", "io.countersign.cel..")
            .should().dependOnClassesThat().resideInAnyPackage("io.countersign.service..",
                    "io.countersign.console..", "io.countersign.cli..", "io.countersign.runtime..",
                    "io.countersign.app..", "javafx..", "picocli..")
            .because("adapters sit behind the engine's ports and know nothing of the use cases or the screens");

    @ArchTest
    static final ArchRule oneSchemaValidator = noClasses().that().resideOutsideOfPackage("io.countersign.tools")
            .should().dependOnClassesThat().resideInAPackage("com.networknt..")
            .because("arguments, edits, typed input and answers are checked by one validator, behind the engine's"
                    + " SchemaValidator port");

    @ArchTest
    static final ArchRule oneTelemetryAdapter = noClasses().that().resideOutsideOfPackages(
                    "io.countersign.telemetry..")
            .should().dependOnClassesThat().resideInAPackage("io.opentelemetry..")
            .because("spans and metrics are made in one adapter, behind the engine's RunTelemetry port");

    @ArchTest
    static final ArchRule telemetryKnowsNoOtherAdapter = noClasses().that()
            .resideInAPackage("io.countersign.telemetry..")
            .should().dependOnClassesThat().resideInAnyPackage("io.countersign.store..", "io.countersign.model..",
                    "io.countersign.tools..", "io.countersign.webhook..")
            .because("telemetry sees runs through the engine's values, like every adapter");

    @ArchTest
    static final ArchRule oneConditionLanguage = noClasses().that().resideOutsideOfPackage("io.countersign.cel")
            .should().dependOnClassesThat().resideInAPackage("dev.cel..")
            .because("declarative rules' conditions are compiled and evaluated by one adapter, behind the engine's"
                    + " ConditionLanguage port");

    @ArchTest
    static final ArchRule storeKnowsNoOtherAdapter = noClasses().that().resideInAPackage("io.countersign.store..")
            .should().dependOnClassesThat().resideInAnyPackage("io.countersign.model..", "io.countersign.tools..",
                    "io.countersign.webhook..", "io.countersign.telemetry..", "io.countersign.cel..")
            .because("the values a store keeps belong to the engine, not to another adapter");

    @ArchTest
    static final ArchRule serviceHasNoScreensOrCommands = noClasses().that()
            .resideInAPackage("io.countersign.service..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "picocli..", "io.countersign.console..",
                    "io.countersign.cli..", "io.countersign.runtime..", "io.countersign.app..")
            .because("the console and the command line share the same use cases");

    @ArchTest
    static final ArchRule consoleTalksToTheServices = noClasses().that().resideInAPackage("io.countersign.console..")
            .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "okhttp3..",
                    "picocli..", "io.countersign.store..", "io.countersign.model..", "io.countersign.tools..",
                    "io.countersign.webhook..", "io.countersign.telemetry..", "io.countersign.cel..",
                    "io.countersign.cli..", "io.countersign.runtime..", "io.countersign.app..")
            .because("screens talk to the service layer, never to the store, the adapters or the wiring");

    @ArchTest
    static final ArchRule commandLineHasNoScreens = noClasses().that().resideInAPackage("io.countersign.cli..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "java.sql..", "javax.sql..",
                    "okhttp3..", "io.countersign.console..", "io.countersign.model..", "io.countersign.tools..",
                    "io.countersign.webhook..", "io.countersign.cel..", "io.countersign.app..")
            .because("commands call the use cases over the wiring; only the top (app) starts the console");

    @ArchTest
    static final ArchRule wiringKnowsNoFrontEnd = noClasses().that().resideInAPackage("io.countersign.runtime..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "picocli..", "io.countersign.console..",
                    "io.countersign.cli..", "io.countersign.app..")
            .because("the wiring sits below both front ends, which share it");
}
