package dev.kneepoint.cli;

import dev.kneepoint.telemetry.GpuLogImport;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kneepoint import-gpu}: adds an nvidia-smi log written on the server host to a run's telemetry. */
@Command(name = "import-gpu", mixinStandardHelpOptions = true,
        description = "Add a GPU log written on the server host during a run to that run's telemetry, on the run's"
                + " clock. Log it there with: nvidia-smi --query-gpu=timestamp,index,utilization.gpu,memory.used,"
                + "memory.total,power.draw,temperature.gpu,clocks.sm --format=csv -lms 500 -f gpu.csv")
final class ImportGpuCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "The run directory (written by run or demo)")
    Path run;

    @Parameters(index = "1", paramLabel = "GPU_CSV", description = "nvidia-smi --format=csv output with a timestamp column")
    Path csv;

    @Option(names = "--zone", paramLabel = "ZONE", description = "The GPU host's time zone, as nvidia-smi's timestamps"
            + " carry none: UTC, Europe/Paris, +02:00 ... (default: this machine's, ${DEFAULT-VALUE})")
    String zone = ZoneId.systemDefault().getId();

    @Option(names = "--host", paramLabel = "NAME", description = "The host label of the imported series, to keep GPUs of"
            + " different machines apart (default: ${DEFAULT-VALUE})")
    String host = GpuLogImport.DEFAULT_HOST;

    @Override
    public Integer call() {
        ZoneId z;
        try {
            z = ZoneId.of(zone);
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException("--zone '" + zone + "' is not a time zone: give a region such as"
                    + " Europe/Paris or an offset such as +02:00 or UTC");
        }
        GpuLogImport.Result r = GpuLogImport.into(run, csv, z, host);
        System.out.printf(java.util.Locale.ROOT, "imported %d of %d rows (%d samples) into %s, aligned on %s%n",
                r.imported(), r.rows(), r.samples(), run, r.alignedOn());
        if (r.outsideRun() > 0) {
            System.out.printf(java.util.Locale.ROOT, "%d rows fell outside the run (before its start or after its end;"
                    + " check --zone and the two hosts' clocks if that is most of them)%n", r.outsideRun());
        }
        r.problems().stream().limit(10).forEach(p -> System.out.println("skipped " + p));
        if (r.problems().size() > 10) {
            System.out.println("... and " + (r.problems().size() - 10) + " more rows skipped");
        }
        return r.imported() > 0 ? 0 : 1;
    }
}
