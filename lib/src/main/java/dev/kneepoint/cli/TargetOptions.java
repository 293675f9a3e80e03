package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import picocli.CommandLine.Option;

/**
 * The server a command loads: its URL, model and API, and how requests ask for their answer (streamed or not, with
 * vLLM's per-chunk usage). Credentials, extra headers and TLS trust are {@link AccessOptions}. Unset, each setting is
 * {@link TargetConfig}'s default ({@link OptionDefaults}).
 */
final class TargetOptions {
    @Option(names = "--url", required = true, description = "Server base URL, e.g. http://127.0.0.1:8000")
    String url;

    @Option(names = "--model", required = true, description = "Model name sent in each request")
    String model;

    @Option(names = "--api", description = "Server API: chat, completions (OpenAI-compatible), tgi, ollama-generate, "
            + "ollama-chat, llamacpp or sglang (native); see docs/SERVERS.md (default: ${DEFAULT-VALUE})")
    String api;

    @Option(names = "--no-stream", description = "Non-streaming requests (TTFT equals E2E)")
    boolean noStream;

    @Option(names = "--continuous-usage", description = "Ask vLLM for per-chunk usage (continuous_usage_stats)")
    boolean continuousUsage;

    /** A builder of the target these options name; {@code --api} is checked here, in the command line's terms. */
    TargetConfig.Builder builder() {
        TargetConfig.Builder b = Kneepoint.targetBuilder().baseUrl(url).model(model);
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
}
