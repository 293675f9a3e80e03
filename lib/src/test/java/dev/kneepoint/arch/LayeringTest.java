package dev.kneepoint.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layers of docs/ARCHITECTURE.md, enforced on the library's compiled classes: no two packages depend on
 * each other (directly or around a loop), and each package uses only the layers listed for it. A new import
 * that breaks either fails the build with the offending classes named; move the type to the layer both sides
 * may use (often {@code request} or {@code metrics}) rather than widening a rule.
 */
@AnalyzeClasses(packages = "dev.kneepoint", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.(**)")
            .as("packages of dev.kneepoint").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule layersOnlyLookDown = layeredArchitecture()
            .consideringOnlyDependenciesInAnyPackage("dev.kneepoint..")
            .layer("cli").definedBy("dev.kneepoint.cli..")
            .layer("facade").definedBy("dev.kneepoint")
            .layer("scenario").definedBy("dev.kneepoint.scenario..")
            .layer("serve").definedBy("dev.kneepoint.serve..")
            .layer("sweep").definedBy("dev.kneepoint.sweep..")
            .layer("report").definedBy("dev.kneepoint.report..")
            .layer("plot").definedBy("dev.kneepoint.plot..")
            .layer("analysis").definedBy("dev.kneepoint.analysis..")
            .layer("load").definedBy("dev.kneepoint.load..")
            .layer("workload").definedBy("dev.kneepoint.workload..")
            .layer("io").definedBy("dev.kneepoint.io..")
            .layer("telemetry").definedBy("dev.kneepoint.telemetry..")
            .layer("client").definedBy("dev.kneepoint.client..")
            .layer("request").definedBy("dev.kneepoint.request..")
            .layer("metrics").definedBy("dev.kneepoint.metrics..")
            .layer("sim").definedBy("dev.kneepoint.sim..")
            .whereLayer("facade").mayOnlyAccessLayers("serve", "scenario", "sweep", "report", "plot", "analysis", "load",
                    "workload", "io", "telemetry", "client", "request", "metrics", "sim")
            .whereLayer("scenario").mayOnlyAccessLayers("sweep", "report", "plot", "analysis", "load", "workload",
                    "io", "telemetry", "client", "request", "metrics")
            .whereLayer("serve").mayOnlyAccessLayers("sweep", "report", "plot", "analysis", "io", "telemetry",
                    "client", "request", "metrics")
            .whereLayer("sweep").mayOnlyAccessLayers("report", "plot", "analysis", "load", "workload", "io",
                    "telemetry", "client", "request", "metrics", "sim")
            .whereLayer("report").mayOnlyAccessLayers("plot", "analysis", "io", "telemetry", "metrics")
            .whereLayer("plot").mayOnlyAccessLayers("analysis", "telemetry", "metrics")
            .whereLayer("analysis").mayOnlyAccessLayers("io", "telemetry", "metrics")
            .whereLayer("load").mayOnlyAccessLayers("request", "metrics")
            .whereLayer("workload").mayOnlyAccessLayers("client", "request", "metrics")
            .whereLayer("io").mayOnlyAccessLayers("telemetry", "metrics")
            .whereLayer("telemetry").mayOnlyAccessLayers("client", "metrics")
            .whereLayer("client").mayOnlyAccessLayers("request", "metrics")
            .whereLayer("request").mayOnlyAccessLayers("metrics")
            .whereLayer("metrics").mayNotAccessAnyLayer()
            .whereLayer("sim").mayNotAccessAnyLayer()
            .whereLayer("cli").mayNotBeAccessedByAnyLayer();

    @ArchTest
    static final ArchRule theLibraryNeverUsesTheKernel = noClasses().that().resideInAPackage("dev.kneepoint..")
            .should().dependOnClassesThat().resideInAPackage("dev.kneepoint.kernel..")
            .because("the kernel is a thin adapter over the library, registered from outside it");
}
