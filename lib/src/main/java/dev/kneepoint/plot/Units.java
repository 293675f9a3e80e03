package dev.kneepoint.plot;

/** Axis titles with units from column names: {@code ttft_sched_p99_ms} → "ttft_sched p99 (ms)". */
final class Units {
    private Units() {}

    static String axis(String column) {
        if (column.endsWith("_per_s")) {
            String base = column.substring(0, column.length() - 6);
            return base.replace('_', ' ') + " (" + unitOf(base) + "/s)";
        }
        if (column.endsWith("_rps")) {
            return column.substring(0, column.length() - 4).replace('_', ' ') + " (req/s)";
        }
        if (column.endsWith("_ms")) {
            String base = column.substring(0, column.length() - 3);
            int p = base.lastIndexOf("_p");
            if (p > 0 && p + 2 < base.length() && Character.isDigit(base.charAt(p + 2))) {
                return base.substring(0, p) + " " + base.substring(p + 1) + " (ms)";
            }
            return base + " (ms)";
        }
        if (column.endsWith("_s")) {
            return column.substring(0, column.length() - 2).replace('_', ' ') + " (s)";
        }
        return column.replace('_', ' ');
    }

    private static String unitOf(String base) {
        return base.endsWith("tokens") ? "tokens" : base.endsWith("requests") ? "requests" : "1";
    }

    /** Axis title of a load: "concurrency (users)" or "request rate (req/s)". */
    static String load(boolean openLoop) {
        return openLoop ? "request rate (req/s)" : "concurrency (users)";
    }
}
