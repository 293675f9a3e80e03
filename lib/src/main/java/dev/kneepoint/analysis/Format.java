package dev.kneepoint.analysis;

import java.util.Locale;

/** Locale.ROOT number formatting shared by analysis texts. */
final class Format {
    private Format() {}

    /** {@code 99} → "99", {@code 99.9} → "99.9". */
    static String percentile(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : stripZeros(String.format(Locale.ROOT, "%.4f", p));
    }

    /** Three significant digits-ish: "12.3", "0.0123", "12345". */
    static String num(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+inf" : "-inf";
        }
        double a = Math.abs(v);
        String s;
        if (a >= 1000 || a == 0) {
            s = String.format(Locale.ROOT, "%.0f", v);
        } else if (a >= 10) {
            s = String.format(Locale.ROOT, "%.1f", v);
        } else if (a >= 0.1) {
            s = String.format(Locale.ROOT, "%.3f", v);
        } else {
            s = String.format(Locale.ROOT, "%.3g", v);
        }
        return s.contains(".") && !s.contains("e") ? stripZeros(s) : s;
    }

    /** "×1.23". */
    static String ratio(double r) {
        return "x" + String.format(Locale.ROOT, "%.2f", r);
    }

    /** "12.5%". */
    static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    private static String stripZeros(String s) {
        if (!s.contains(".")) {
            return s;
        }
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
