package dev.kneepoint.telemetry;

import java.util.Objects;

/**
 * Where GPU readings come from: {@link #auto()} (nvidia-smi when it is on the PATH, else none, recorded as
 * absent), {@link #nvidiaSmi()} (required: absent is recorded when it is missing), {@link #dcgm(String)}
 * (a DCGM exporter's Prometheus endpoint) or {@link #off()}.
 */
public sealed interface Gpu {
    /** nvidia-smi when found on the PATH; no GPU sampling (status {@code absent}) otherwise. */
    record Auto() implements Gpu {}

    /** nvidia-smi, expected to exist; its absence is recorded. */
    record NvidiaSmi() implements Gpu {}

    /** A DCGM exporter endpoint, e.g. {@code http://gpu-node:9400/metrics}. */
    record Dcgm(String url) implements Gpu {
        public Dcgm {
            Objects.requireNonNull(url, "url");
        }
    }

    /** No GPU sampling. */
    record Off() implements Gpu {}

    static Gpu auto() { return new Auto(); }

    static Gpu nvidiaSmi() { return new NvidiaSmi(); }

    static Gpu dcgm(String url) { return new Dcgm(url); }

    static Gpu off() { return new Off(); }
}
