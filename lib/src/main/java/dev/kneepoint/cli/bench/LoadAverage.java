package dev.kneepoint.cli.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The system load average over 1, 5 and 15 minutes (NaN where the platform does not tell). */
record LoadAverage(double one, double five, double fifteen) {
    /** Now: {@code /proc/loadavg} on Linux, else the JVM's one-minute figure. */
    public static LoadAverage now() {
        try {
            return parse(Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            double one = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            return new LoadAverage(one < 0 ? Double.NaN : one, Double.NaN, Double.NaN);
        }
    }

    /** Parses the first three fields of a {@code /proc/loadavg} line, e.g. {@code "3.32 2.11 1.46 3/412 9999"}. */
    static LoadAverage parse(String procLoadavg) {
        String[] f = procLoadavg.strip().split("\\s+");
        if (f.length < 3) {
            throw new IllegalArgumentException("not a /proc/loadavg line: '" + procLoadavg.strip() + "'");
        }
        return new LoadAverage(Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.2f %.2f %.2f", one, five, fifteen);
    }
}
