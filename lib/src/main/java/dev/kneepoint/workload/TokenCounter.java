package dev.kneepoint.workload;

import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.request.RequestSpec;
import java.util.List;

/**
 * Counts prompt tokens the way a server will: the seam that prompt calibration measures with.
 *
 * <p>Implementations: {@link #server(TargetConfig)} (the server's own {@code /tokenize}: exact),
 * {@link #estimate()} (about four characters per token: flagged as an estimate), or any function
 * of your own (e.g. a local tokenizer) through {@link #of(String, boolean, java.util.function.ToIntFunction)}.
 * Implementations are thread-safe. Failures throw {@link TokenizerException}.
 */
public interface TokenCounter {

    /** Tokens of {@code text} sent as a completions prompt (special tokens the server adds included). */
    int count(String text);

    /**
     * Tokens of a chat prompt: the messages after the server's chat template, generation prompt
     * included (what {@code usage.prompt_tokens} reports for a chat request).
     */
    int countChat(List<RequestSpec.ChatMessage> messages);

    /** True when counts are the server's (or the model's own tokenizer's), false for an estimate. */
    boolean exact();

    /** Where the counts come from, e.g. {@code server:http://host:8000/tokenize (vllm)} or {@code estimate:chars/4}. */
    String describe();

    /**
     * The server's own tokenizer through its tokenize endpoint, sent with the target's API key, extra headers and
     * TLS options. The endpoint's shape is detected on the first call (the one the target's API suggests tried
     * first): vLLM, SGLang and the simulator ({@code /tokenize} with {@code prompt}), llama.cpp's llama-server
     * ({@code /tokenize} with {@code content}), TGI ({@code /tokenize} with {@code inputs}) and llama-cpp-python's
     * {@code llama_cpp.server} ({@code /extras/tokenize}). Chat prompts go through the server's chat tokenizer
     * where it has one, else through one {@code max_tokens: 1} chat completion's {@code usage.prompt_tokens}.
     * When none answers, the {@link TokenizerException} lists every endpoint tried and its answer. For an Ollama
     * target ({@code ollama-generate} / {@code ollama-chat}), which has no tokenize endpoint, this is
     * {@link #ollama(TargetConfig)}.
     */
    static TokenCounter server(TargetConfig target) {
        if (target.apiKind() == dev.kneepoint.client.ApiKind.OLLAMA_GENERATE
                || target.apiKind() == dev.kneepoint.client.ApiKind.OLLAMA_CHAT) {
            return ollama(target);
        }
        return new ServerTokenizer(target.baseUrl(), target.model(), dev.kneepoint.client.HttpClients.forChecks(target),
                target.apiKind());
    }

    /**
     * Ollama's prompt counts: Ollama has no {@code /tokenize}, so each count is a non-streamed request of
     * one output token ({@code options.num_predict: 1}) to {@code /api/generate} (prompts) or
     * {@code /api/chat} (messages), and the count is its {@code prompt_eval_count}: exact (the server's
     * tokenizer and chat template), one short prefill per call. The target's extra body fields are sent
     * too (they can change the template). Works for any target at an Ollama server, including one that
     * is measured through Ollama's OpenAI-compatible {@code /v1} (its chat requests go through the same
     * template as {@code /api/chat}). A target of {@code /api/embed} counts each text there instead: an input is
     * embedded as it is, without the template a generation prompt gets.
     */
    static TokenCounter ollama(TargetConfig target) {
        return new OllamaTokenCounter(target.baseUrl(), target.model(), target.extraBody(),
                dev.kneepoint.client.HttpClients.forChecks(target),
                target.apiKind() == dev.kneepoint.client.ApiKind.OLLAMA_EMBED);
    }

    /** Like {@link #server(TargetConfig)} from a base URL and model name. */
    static TokenCounter server(String baseUrl, String model) {
        okhttp3.HttpUrl url = okhttp3.HttpUrl.parse(baseUrl);
        if (url == null) {
            throw new IllegalArgumentException("baseUrl '" + baseUrl + "' is not a valid http(s) URL");
        }
        return new ServerTokenizer(url, model);
    }

    /**
     * An estimate: {@code ceil(chars / 4)} per text; chat adds 4 tokens per message and 3 for the
     * generation prompt. {@link #exact()} is false and every report says "estimate".
     */
    static TokenCounter estimate() {
        return of("estimate:chars/4", false, text -> (text.length() + 3) / 4);
    }

    /**
     * OpenAI's own tokenizer, locally (tiktoken encodings through jtokkit): exact prompt lengths for OpenAI
     * and other endpoints that offer no {@code /tokenize}. {@code modelOrEncoding} is a model name
     * ({@code gpt-4o}, {@code gpt-4}, {@code gpt-3.5-turbo}) or an encoding ({@code o200k_base},
     * {@code cl100k_base}, {@code p50k_base}, {@code r50k_base}). Chat prompts are counted with OpenAI's
     * documented message framing: 3 tokens per message plus its role and content, and 3 to prime the reply.
     *
     * @throws IllegalArgumentException naming the unknown model or encoding and the known encodings
     */
    static TokenCounter openAi(String modelOrEncoding) {
        return OpenAiTokenizer.of(modelOrEncoding);
    }

    /**
     * A counter from a function (a local tokenizer). Chat prompts are counted as the sum of the
     * contents plus 4 tokens per message and 3 for the generation prompt, a template estimate.
     */
    static TokenCounter of(String description, boolean exact, java.util.function.ToIntFunction<String> count) {
        return new FunctionTokenCounter(description, exact, count);
    }
}
