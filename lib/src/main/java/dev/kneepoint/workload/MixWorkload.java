package dev.kneepoint.workload;

import dev.kneepoint.metrics.Problems;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Weighted workloads in one step: request {@code i} goes to component {@code k} with probability
 * {@code weight_k / sum(weights)}, drawn from the seed and the index (deterministic). Each component
 * is called with the same index, and its requests carry its tag so that traffic classes are
 * reported apart. Build with {@link Workloads#mix()}.
 */
public final class MixWorkload implements DescribedWorkload {
    /** One component: its weight, tag and workload. */
    public record Component(double weight, String tag, Workload workload) {
    }

    private final List<Component> components;
    private final WeightedPick pick;
    private final long seed;

    private MixWorkload(List<Component> components, long seed) {
        this.components = List.copyOf(components);
        this.seed = seed;
        this.pick = new WeightedPick(components.stream().mapToDouble(Component::weight).toArray(), seed);
    }

    /** Which component serves request {@code index}. */
    public int componentOf(long index) {
        return pick.of(index);
    }

    @Override
    public RequestSpec next(long index) {
        Component c = components.get(componentOf(index));
        return c.workload().next(index).withTag(c.tag());
    }

    public List<Component> components() {
        return components;
    }

    @Override
    public Map<String, Object> describe() {
        List<Map<String, Object>> parts = new ArrayList<>();
        for (Component c : components) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("weight", c.weight());
            m.put("tag", c.tag());
            m.put("workload", c.workload() instanceof DescribedWorkload d ? d.describe()
                    : Map.of("kind", c.workload().getClass().getName()));
            parts.add(m);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "mix");
        m.put("seed", seed);
        m.put("components", parts);
        return m;
    }

    /** Builder; {@link #build()} reports every problem at once. */
    public static final class Builder {
        private final List<Component> components = new ArrayList<>();
        private long seed = 42;

        Builder() {
        }

        /** Adds a component tagged {@code tag}. */
        public Builder add(double weight, String tag, Workload workload) {
            components.add(new Component(weight, tag, workload));
            return this;
        }

        /** Adds a component keeping its own tag, or {@code mix-K} if it has none (K: its position). */
        public Builder add(double weight, Workload workload) {
            return add(weight, null, workload);
        }

        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        public MixWorkload build() {
            Problems p = new Problems();
            if (components.isEmpty()) {
                p.add("a mix needs at least one component");
            }
            List<Component> fixed = new ArrayList<>();
            for (int i = 0; i < components.size(); i++) {
                Component c = components.get(i);
                if (!(c.weight() > 0) || Double.isInfinite(c.weight())) {
                    p.add("component " + i + ": weight must be a positive number, got " + c.weight());
                }
                if (c.workload() == null) {
                    p.add("component " + i + ": workload is required");
                    continue;
                }
                String tag = c.tag();
                if (tag == null || tag.isBlank()) {
                    String own = c.workload().next(0).tag();
                    tag = own.equals("default") ? "mix-" + i : own;
                }
                fixed.add(new Component(c.weight(), tag, c.workload()));
            }
            p.throwListIfAny("mix", " - ");
            return new MixWorkload(fixed, seed);
        }
    }
}
