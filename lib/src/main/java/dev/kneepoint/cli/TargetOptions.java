package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.workload.ModelMix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The server a command loads: its URL, model and API, and how requests ask for their answer (streamed or not, with
 * vLLM's per-chunk usage), and the four request timeouts (METRICS.md "Outcomes": {@code TIMEOUT(kind)}). Credentials,
 * extra headers and TLS trust are {@link AccessOptions}. Unset, each setting is {@link TargetConfig}'s default
 * ({@link OptionDefaults}).
 */
final class TargetOptions {
    @Option(names = "--url", required = true, description = "Server base URL, e.g. http://127.0.0.1:8000")
    String url;

    @Option(names = "--model", required = true, paramLabel = "NAME|NAME=WEIGHT,...", description = "Model name sent "
            + "in each request, or a mix: each request to one model by weight, e.g. base=0.6,adapter-a=0.3,adapter-b=0.1"
            + " (LoRA adapters, several models behind one URL; the first is the target's, for the preflight and the "
            + "tokenizer); the report breaks every step down by model")
    String model;

    /** The model mix {@code --model} gives, or null for one model. */
    ModelMix modelMix() {
        return ModelMix.isMix(model) ? ModelMix.parse(model, 0) : null; // the sweep's seed draws it
    }

    @Option(names = "--api", description = "Server API: chat, completions, responses (OpenAI), messages (Anthropic), "
            + "tgi, ollama-generate, ollama-chat, llamacpp or sglang (native); pooling: embeddings, ollama-embed, "
            + "rerank, tei-rerank, score (with --batch); see docs/SERVERS.md "
            + "(default: ${DEFAULT-VALUE})")
    String api;

    @Option(names = "--no-stream", description = "Non-streaming requests (TTFT equals E2E)")
    boolean noStream;

    @Option(names = "--continuous-usage", description = "Ask vLLM for per-chunk usage (continuous_usage_stats)")
    boolean continuousUsage;

    @Option(names = "--timeout-connect", description = "Longest wait to open a connection: TIMEOUT(connect) "
            + "(default: ${DEFAULT-VALUE})")
    Duration connectTimeout;

    @Option(names = "--timeout-first-token", description = "Longest wait from dispatch to the first token, prefill "
            + "and queueing included: TIMEOUT(first_token) (default: ${DEFAULT-VALUE})")
    Duration firstTokenTimeout;

    @Option(names = "--timeout-idle", description = "Longest silence once tokens flow: TIMEOUT(idle); keep it below "
            + "the step's drain, so a stalled stream is a timeout, not UNFINISHED (default: ${DEFAULT-VALUE})")
    Duration idleTimeout;

    @Option(names = "--timeout-total", description = "Longest whole request: TIMEOUT(total) (default: ${DEFAULT-VALUE})")
    Duration totalTimeout;

    /**
     * A builder of the target these options name; {@code --api} and the timeouts are checked here, in the command
     * line's terms (every timeout problem at once).
     */
    TargetConfig.Builder builder() {
        checkTimeouts();
        ModelMix mix = modelMix();
        TargetConfig.Builder b = Kneepoint.targetBuilder().baseUrl(url).model(mix == null ? model : mix.models().get(0));
        Given.set(connectTimeout, b::connectTimeout);
        Given.set(firstTokenTimeout, b::firstTokenTimeout);
        Given.set(idleTimeout, b::idleTimeout);
        Given.set(totalTimeout, b::totalTimeout);
        if (api != null) {
            try {
                b.apiKind(ApiKind.parse(api));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--api: " + e.getMessage(), e);
            }
        }
        if (noStream) {
            b.stream(false);
        }
        if (continuousUsage) {
            b.continuousUsageStats(true);
        }
        return b;
    }

    private void checkTimeouts() {
        List<String> problems = new ArrayList<>();
        check(problems, "--timeout-connect", connectTimeout);
        check(problems, "--timeout-first-token", firstTokenTimeout);
        check(problems, "--timeout-idle", idleTimeout);
        check(problems, "--timeout-total", totalTimeout);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
    }

    private static void check(List<String> problems, String option, Duration d) {
        if (d != null && (d.isNegative() || d.isZero())) {
            problems.add(option + " must be a positive duration such as 500ms, 20s or 10m, got " + Durations.format(d));
        }
    }
}
