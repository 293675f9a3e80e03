package dev.kneepoint.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/**
 * The results of one {@code kneepoint bench --all}: the machine, and each part's figures with their targets.
 * {@link #markdown()} and {@link #json()} are its two renderings (results.md, results.json).
 *
 * @param quick     whether this was a {@code --quick} smoke run (small sizes, short windows)
 * @param machine   where it ran
 * @param classPath the class path the Java parts ran with ({@code $CP} in their commands)
 * @param parts     each part's result, in run order
 * @param loadAtStart load average before the first part
 * @param loadAtEnd load average when the last part had ended
 */
public record BenchReport(boolean quick, Machine machine, String classPath, List<PartResult> parts,
        LoadAverage loadAtStart, LoadAverage loadAtEnd) {
    /** Version of the results.json layout. */
    public static final String FORMAT = "kneepoint-bench-all/1";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public BenchReport {
        parts = List.copyOf(parts);
        classPath = classPath == null ? "" : classPath;
    }

    /** Figures over all parts with the given verdict. */
    public long count(Verdict v) {
        return parts.stream().flatMap(p -> p.figures().stream()).filter(f -> f.verdict() == v).count();
    }

    /** Whether every part that was asked for ran and parsed (skipped parts do not count as failures). */
    public boolean noPartFailed() {
        return parts.stream().noneMatch(p -> p.status() == PartResult.Status.FAILED);
    }

    /** results.md. */
    public String markdown() {
        StringBuilder s = new StringBuilder();
        s.append("# Kneepoint benchmark: all parts").append(quick ? " (--quick smoke run)" : "").append("\n\n");
        if (quick) {
            s.append("**Quick mode**: short windows and a small analysis run directory; the verdicts show that every part runs,"
                    + " not the figures of docs/PERFORMANCE.md.\n\n");
        }
        s.append(String.format(Locale.ROOT, "%d met, %d missed, %d not judged, %d without target.%n%n", count(Verdict.MET),
                count(Verdict.MISSED), count(Verdict.NOT_JUDGED), count(Verdict.NO_TARGET)));
        s.append("## Machine\n\n| | |\n|---|---|\n");
        row(s, "date (UTC)", machine.date().toString());
        row(s, "CPU", machine.cpuModel());
        row(s, "cores", Integer.toString(machine.cores()));
        row(s, "memory", String.format(Locale.ROOT, "%.1f GiB", machine.memoryBytes() / (double) (1L << 30)));
        row(s, "OS", machine.os());
        row(s, "OS kernel", machine.kernel());
        row(s, "JDK", machine.jdk());
        row(s, "default GC", machine.gc());
        row(s, "git commit", machine.gitCommit() + (machine.gitDirty() == null ? " (dirty: unknown)"
                : machine.gitDirty() ? " (dirty: uncommitted changes)" : " (clean)"));
        row(s, "load average (1/5/15 min) at start, at end", loadAtStart + ", " + loadAtEnd);
        s.append("\n## Figures\n\n| part | figure | value | target | ratio to target | verdict | note |\n|---|---|---|---|---|---|---|\n");
        for (PartResult p : parts) {
            for (Figure f : p.figures()) {
                s.append("| ").append(p.part().id()).append(" | ").append(esc(f.label())).append(" | ")
                        .append(Double.isNaN(f.value()) ? "n/a" : value(f.value()) + " " + f.unit()).append(" | ")
                        .append(f.target() == null ? "–" : esc(f.target().text())).append(" | ")
                        .append(Double.isNaN(f.ratio()) ? "–" : String.format(Locale.ROOT, "%.2f", f.ratio())).append(" | ")
                        .append(f.verdict() == Verdict.MISSED ? "**missed**" : f.verdict().word()).append(" | ")
                        .append(esc(f.note())).append(" |\n");
            }
        }
        s.append("\n## Parts\n\n| part | status | wall s | load average before → after | settings | output |\n|---|---|---|---|---|---|\n");
        for (int i = 0; i < parts.size(); i++) {
            PartResult p = parts.get(i);
            s.append("| ").append(p.part().id()).append(" | ").append(p.status().name().toLowerCase(Locale.ROOT))
                    .append(p.reason().isEmpty() ? "" : ": " + esc(p.reason())).append(" | ")
                    .append(String.format(Locale.ROOT, "%.1f", p.wallS())).append(" | ")
                    .append(p.loadBefore()).append(" → ").append(p.loadAfter()).append(" | ")
                    .append(esc(p.settings())).append(" | ")
                    .append(String.join(", ", p.logs())).append(" |\n");
        }
        s.append("\nCommands (run from the checkout):\n\n```\n");
        if (!classPath.isEmpty()) {
            s.append("CP=\"").append(classPath).append("\"\n");
        }
        for (PartResult p : parts) {
            for (String c : p.commands()) {
                s.append(c).append('\n');
            }
        }
        return s.append("```\n").toString();
    }

    /** results.json (layout {@link #FORMAT}; a value that could not be measured is null). */
    public String json() {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("mode", quick ? "quick" : "full");
        ObjectNode m = root.putObject("machine");
        m.put("date", machine.date().toString());
        m.put("cpu_model", machine.cpuModel());
        m.put("cores", machine.cores());
        m.put("memory_bytes", machine.memoryBytes());
        m.put("os", machine.os());
        m.put("kernel", machine.kernel());
        m.put("jdk", machine.jdk());
        m.put("gc", machine.gc());
        m.put("git_commit", machine.gitCommit());
        root.put("class_path", classPath);
        if (machine.gitDirty() == null) {
            m.putNull("git_dirty");
        } else {
            m.put("git_dirty", machine.gitDirty());
        }
        load(m.putArray("load_average_start"), loadAtStart);
        load(m.putArray("load_average_end"), loadAtEnd);
        ObjectNode counts = root.putObject("summary");
        for (Verdict v : Verdict.values()) {
            counts.put(v.name().toLowerCase(Locale.ROOT), count(v));
        }
        ArrayNode ps = root.putArray("parts");
        for (int i = 0; i < parts.size(); i++) {
            PartResult p = parts.get(i);
            ObjectNode o = ps.addObject();
            o.put("part", p.part().id());
            o.put("status", p.status().name().toLowerCase(Locale.ROOT));
            o.put("reason", p.reason());
            o.put("settings", p.settings());
            o.put("wall_s", p.wallS());
            load(o.putArray("load_average_before"), p.loadBefore());
            load(o.putArray("load_average_after"), p.loadAfter());
            p.commands().forEach(o.putArray("commands")::add);
            p.logs().forEach(o.putArray("logs")::add);
            ArrayNode fs = o.putArray("figures");
            for (Figure f : p.figures()) {
                ObjectNode x = fs.addObject();
                x.put("key", f.key());
                x.put("label", f.label());
                number(x, "value", f.value());
                x.put("unit", f.unit());
                if (f.target() == null) {
                    x.putNull("target");
                } else {
                    ObjectNode t = x.putObject("target");
                    t.put("op", f.target().op() == Target.Op.AT_MOST ? "<=" : ">=");
                    t.put("bound", f.target().bound());
                    t.put("nominal", f.target().nominal());
                    t.put("text", f.target().text());
                }
                number(x, "ratio", f.ratio());
                x.put("verdict", f.verdict().name().toLowerCase(Locale.ROOT));
                x.put("note", f.note());
            }
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot happen: a tree of plain nodes", e);
        }
    }

    private static void number(ObjectNode o, String name, double v) {
        if (Double.isFinite(v)) {
            o.put(name, v);
        } else {
            o.putNull(name);
        }
    }

    private static void load(ArrayNode a, LoadAverage l) {
        for (double v : new double[] {l.one(), l.five(), l.fifteen()}) {
            if (Double.isFinite(v)) {
                a.add(v);
            } else {
                a.addNull();
            }
        }
    }

    private static void row(StringBuilder s, String k, String v) {
        s.append("| ").append(k).append(" | ").append(esc(v)).append(" |\n");
    }

    private static String esc(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    private static String value(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        String f = a >= 100 ? "%,.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, f, v);
    }
}
