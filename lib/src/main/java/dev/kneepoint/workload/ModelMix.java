package dev.kneepoint.workload;

import dev.kneepoint.metrics.Problems;
import dev.kneepoint.request.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Requests spread over several models by weight: a base model and its LoRA adapters, or models a router serves side
 * by side (vLLM serves each adapter under its own name with {@code --lora-modules name=path}). Each request of any
 * workload is sent to one model ({@code RequestSpec.model}), drawn from the seed and the request's index, so a rerun
 * sends the same requests to the same models (every turn of a chat session to its session's model); the choice is
 * independent of a {@link MixWorkload}'s classes. Each
 * record keeps its model ({@code model} in {@code requests.jsonl}), and the tables break the steps down by it.
 *
 * @param weights model name → weight, in the order given (positive, finite)
 * @param seed    the draw's seed
 */
public record ModelMix(Map<String, Double> weights, long seed) {
    /** Keeps the model draw apart from the other draws of the same seed (a class mix's, the lengths'). */
    private static final long MODEL_STREAM = 0x6D6F64656C6D6978L;

    public ModelMix {
        Problems p = new Problems();
        p.check(weights != null && !weights.isEmpty(), "a model mix needs at least one model");
        if (weights != null) {
            weights.forEach((name, w) -> p.check(name != null && !name.isBlank(), "a model name must not be blank")
                    .check(w != null && w > 0 && !w.isInfinite(),
                            "model '" + name + "': weight must be a positive number, got " + w));
        }
        p.throwIfAny("model mix");
        weights = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(weights));
    }

    /**
     * The mix written {@code NAME=WEIGHT,NAME=WEIGHT...} (the command line's {@code --model}), e.g.
     * {@code base=0.6,adapter-a=0.3,adapter-b=0.1}; the weights need not sum to 1.
     *
     * @throws IllegalArgumentException naming the part that is not {@code NAME=WEIGHT}
     */
    public static ModelMix parse(String text, long seed) {
        Map<String, Double> weights = new LinkedHashMap<>();
        for (String part : Objects.requireNonNull(text, "text").split(",")) {
            int eq = part.lastIndexOf('=');
            double w;
            try {
                w = eq < 0 ? Double.NaN : Double.parseDouble(part.substring(eq + 1).strip());
            } catch (NumberFormatException e) {
                w = Double.NaN;
            }
            if (Double.isNaN(w)) {
                throw new IllegalArgumentException("model mix part '" + part.strip() + "' is not NAME=WEIGHT (e.g. "
                        + "base=0.6,adapter-a=0.4)");
            }
            if (weights.put(part.substring(0, eq).strip(), w) != null) {
                throw new IllegalArgumentException("model '" + part.substring(0, eq).strip() + "' appears twice in "
                        + "the model mix");
            }
        }
        return new ModelMix(weights, seed);
    }

    /** True when {@code text} is written as a mix ({@code NAME=WEIGHT}) rather than one model's name. */
    public static boolean isMix(String text) {
        return text != null && text.contains("=");
    }

    /** The models, in the order given. */
    public List<String> models() {
        return new ArrayList<>(weights.keySet());
    }

    /** The same mix drawn from another seed (a sweep's). */
    public ModelMix seeded(long newSeed) {
        return new ModelMix(weights, newSeed);
    }

    /** {@code workload} with each request sent to its model of this mix. */
    public Workload applyTo(Workload workload) {
        List<String> models = models();
        WeightedPick pick = new WeightedPick(weights.values().stream().mapToDouble(Double::doubleValue).toArray(),
                seed ^ MODEL_STREAM);
        return EveryRequest.applyPerSession(workload, (index, spec) -> spec.withModel(models.get(pick.of(index))),
                "models", describe());
    }

    /** For a manifest: each model's share. */
    public Map<String, Object> describe() {
        double total = weights.values().stream().mapToDouble(Double::doubleValue).sum();
        Map<String, Object> d = new LinkedHashMap<>();
        weights.forEach((m, w) -> d.put(m, Double.parseDouble(String.format(Locale.ROOT, "%.6g", w / total))));
        return d;
    }

    @Override
    public String toString() {
        return "ModelMix" + weights;
    }
}
