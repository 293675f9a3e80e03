package dev.kneepoint.cli.bench;

/**
 * One measured figure of {@code kneepoint bench --all}.
 *
 * @param key     stable identifier in results.json, {@code part.scenario.name_unit}
 * @param label   what it is, for people
 * @param value   the measurement (NaN when it could not be measured)
 * @param unit    unit of {@code value}
 * @param target  the target, or null when the issue asks for the figure without one
 * @param verdict met, missed, not judged, or no target
 * @param note    context: the other percentiles, the scenario, why it is not judged; may be empty
 */
record Figure(String key, String label, double value, String unit, Target target, Verdict verdict, String note) {
    public Figure {
        if (key == null || key.isBlank() || label == null || unit == null || verdict == null || note == null) {
            throw new IllegalArgumentException("a figure needs a key, label, unit, verdict and note (empty allowed); got key '" + key + "'");
        }
        if ((target == null) != (verdict == Verdict.NO_TARGET)) {
            throw new IllegalArgumentException("figure " + key + ": verdict " + verdict + " does not fit target " + target);
        }
    }

    /** A figure asked for without a target. */
    public static Figure info(String key, String label, double value, String unit, String note) {
        return new Figure(key, label, value, unit, null, Verdict.NO_TARGET, note);
    }

    /** A figure judged against {@code target}. */
    public static Figure judged(String key, String label, double value, String unit, Target target, String note) {
        return new Figure(key, label, value, unit, target, target.met(value) ? Verdict.MET : Verdict.MISSED, note);
    }

    /** This figure with its verdict withdrawn ({@link Verdict#NOT_JUDGED}) and the reason appended to the note. */
    public Figure notJudged(String reason) {
        if (target == null) {
            return this;
        }
        return new Figure(key, label, value, unit, target, Verdict.NOT_JUDGED, note.isEmpty() ? reason : note + "; " + reason);
    }

    /** Value over the target's nominal value, NaN without a target. */
    public double ratio() {
        return target == null ? Double.NaN : target.ratio(value);
    }
}
