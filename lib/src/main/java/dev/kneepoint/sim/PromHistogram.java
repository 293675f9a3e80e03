package dev.kneepoint.sim;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** A Prometheus histogram with fixed upper bounds (seconds). Thread-safe. */
final class PromHistogram {
    private final String name;
    private final String help;
    private final double[] bounds;
    private final AtomicLongArray counts;
    private final DoubleAdder sum = new DoubleAdder();
    private final LongAdder count = new LongAdder();

    PromHistogram(String name, String help, double... bounds) {
        this.name = name;
        this.help = help;
        this.bounds = bounds.clone();
        this.counts = new AtomicLongArray(bounds.length + 1);
    }

    void observe(double seconds) {
        int i = 0;
        while (i < bounds.length && seconds > bounds[i]) {
            i++;
        }
        counts.incrementAndGet(i);
        sum.add(seconds);
        count.increment();
    }

    long count() {
        return count.sum();
    }

    double sum() {
        return sum.sum();
    }

    void render(StringBuilder sb, String labels) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE ").append(name).append(" histogram\n");
        long cumulative = 0;
        for (int i = 0; i < bounds.length; i++) {
            cumulative += counts.get(i);
            sb.append(name).append("_bucket{").append(labels).append(",le=\"")
                    .append(String.format(Locale.ROOT, "%s", bounds[i])).append("\"} ").append(cumulative).append('\n');
        }
        cumulative += counts.get(bounds.length);
        sb.append(name).append("_bucket{").append(labels).append(",le=\"+Inf\"} ").append(cumulative).append('\n');
        sb.append(name).append("_sum{").append(labels).append("} ").append(String.format(Locale.ROOT, "%.9f", sum.sum()))
                .append('\n');
        sb.append(name).append("_count{").append(labels).append("} ").append(cumulative).append('\n');
    }
}
