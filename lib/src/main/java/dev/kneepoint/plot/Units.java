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

    /**
     * The title of an axis that several columns of one unit share: their names joined, the unit once
     * ({@code "ttft p99, itl p99 (ms)"}); columns of different units keep each its own.
     */
    static String axis(java.util.List<String> columns) {
        java.util.List<String> titles = columns.stream().map(Units::axis).toList();
        java.util.Set<String> units = new java.util.HashSet<>();
        for (String t : titles) {
            int open = t.lastIndexOf(" (");
            units.add(open < 0 ? "" : t.substring(open));
        }
        if (units.size() != 1 || titles.size() == 1) {
            return String.join(", ", titles);
        }
        String unit = units.iterator().next();
        return String.join(", ", titles.stream().map(t -> t.substring(0, t.length() - unit.length())).toList()) + unit;
    }

    private static String unitOf(String base) {
        return base.endsWith("tokens") ? "tokens" : base.endsWith("requests") ? "requests" : "1";
    }

    /** Axis title of a load: "concurrency (users)" or "request rate (req/s)". */
    static String load(boolean openLoop) {
        return openLoop ? "request rate (req/s)" : "concurrency (users)";
    }
}
