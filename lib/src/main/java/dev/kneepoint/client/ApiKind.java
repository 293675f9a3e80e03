package dev.kneepoint.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which server API a target speaks: the endpoint path, the request body shape, how the response
 * stream is framed (SSE or NDJSON) and how each event is decoded into tokens, finish reason and
 * server timings. See {@code docs/SERVERS.md} for the table of servers, values and fields used.
 *
 * <p>The OpenAI shapes ({@link #CHAT}, {@link #COMPLETIONS}) work with vLLM, SGLang, TGI's
 * Messages API, llama.cpp, Ollama's {@code /v1} and the simulator. The native ones read each
 * server's own stream: {@link #TGI_GENERATE_STREAM}, {@link #OLLAMA_GENERATE}, {@link #OLLAMA_CHAT},
 * {@link #LLAMACPP_COMPLETION}, {@link #SGLANG_GENERATE}. {@link #RESPONSES} (OpenAI's Responses API) and
 * {@link #MESSAGES} (Anthropic's Messages API) are the newer chat shapes vLLM serves beside chat completions.
 *
 * <p>The pooling APIs answer with one JSON document and never stream ({@link Framing#WHOLE}): {@link #EMBEDDINGS},
 * {@link #OLLAMA_EMBED}, {@link #RERANK}, {@link #TEI_RERANK} and {@link #SCORE}. A request carries a batch of texts
 * ({@code RequestSpec.inputs}); its answer's items (vectors, results) are counted and must match the batch.
 */
public enum ApiKind {
    /** OpenAI {@code POST /v1/chat/completions} with {@code messages}. */
    CHAT("/v1/chat/completions", "chat", Framing.SSE, true),
    /** OpenAI {@code POST /v1/completions} with {@code prompt}. */
    COMPLETIONS("/v1/completions", "completions", Framing.SSE, false),
    /** Hugging Face TGI {@code POST /generate_stream}: one SSE event per token, details on the last, no {@code [DONE]}. */
    TGI_GENERATE_STREAM("/generate_stream", "tgi", Framing.SSE, false),
    /** Ollama {@code POST /api/generate}: NDJSON lines with {@code response}, {@code done:true} last. */
    OLLAMA_GENERATE("/api/generate", "ollama-generate", Framing.NDJSON, false),
    /** Ollama {@code POST /api/chat}: NDJSON lines with {@code message.content} (and {@code thinking}). */
    OLLAMA_CHAT("/api/chat", "ollama-chat", Framing.NDJSON, true),
    /** llama.cpp server's native {@code POST /completion}: SSE {@code content}, {@code stop:true} with {@code timings} last. */
    LLAMACPP_COMPLETION("/completion", "llamacpp", Framing.SSE, false),
    /** SGLang native {@code POST /generate}: SSE with cumulative {@code text} and {@code meta_info}, then {@code [DONE]}. */
    SGLANG_GENERATE("/generate", "sglang", Framing.SSE, false),
    /** OpenAI Responses {@code POST /v1/responses} with {@code input}: typed SSE events, {@code response.completed} last. */
    RESPONSES("/v1/responses", "responses", Framing.SSE, true),
    /** Anthropic Messages {@code POST /v1/messages}: typed SSE events ({@code content_block_delta}), {@code message_stop} last. */
    MESSAGES("/v1/messages", "messages", Framing.SSE, true),
    /** OpenAI {@code POST /v1/embeddings} ({@code input}: the batch); vLLM, llama.cpp ({@code --embeddings}), TEI, Ollama. */
    EMBEDDINGS("/v1/embeddings", "embeddings", Framing.WHOLE, false),
    /** Ollama {@code POST /api/embed} ({@code input}: the batch), {@code embeddings} and {@code prompt_eval_count} back. */
    OLLAMA_EMBED("/api/embed", "ollama-embed", Framing.WHOLE, false),
    /** {@code POST /v1/rerank} ({@code query}, {@code documents}): vLLM, llama.cpp ({@code --reranking}), Jina/Cohere shape. */
    RERANK("/v1/rerank", "rerank", Framing.WHOLE, false),
    /** Hugging Face TEI {@code POST /rerank} ({@code query}, {@code texts}): a bare array of {@code {index, score}}. */
    TEI_RERANK("/rerank", "tei-rerank", Framing.WHOLE, false),
    /** vLLM {@code POST /v1/score} ({@code text_1}: the query, {@code text_2}: the batch): one score per pair. */
    SCORE("/v1/score", "score", Framing.WHOLE, false);

    /** How the response body is split into payloads. */
    public enum Framing {
        /** Server-Sent Events; each event's {@code data} is one payload. */
        SSE,
        /** Newline-delimited JSON; each non-blank line is one payload. */
        NDJSON,
        /** One JSON answer, never streamed (the pooling APIs). */
        WHOLE
    }

    private final String path;
    private final String label;
    private final Framing framing;
    private final boolean chat;

    ApiKind(String path, String label, Framing framing, boolean chat) {
        this.path = path;
        this.label = label;
        this.framing = framing;
        this.chat = chat;
    }

    /** The endpoint path, e.g. {@code /v1/chat/completions}. */
    public String path() {
        return path;
    }

    /** The short name users type ({@code --api tgi}, {@code .api("ollama-chat")}). */
    public String label() {
        return label;
    }

    /** How the stream is framed. */
    public Framing framing() {
        return framing;
    }

    /** True when the body carries chat {@code messages} rather than one prompt string. */
    public boolean isChat() {
        return chat;
    }

    /**
     * True for the pooling APIs (embeddings, rerank, score): one JSON answer of {@code items}, no generated tokens;
     * such a target never streams.
     */
    public boolean isPooling() {
        return framing == Framing.WHOLE;
    }

    /** True for rerank and score: the request's prompt is the query its batch is scored against. */
    public boolean takesQuery() {
        return this == RERANK || this == TEI_RERANK || this == SCORE;
    }

    /** True for the OpenAI-compatible shapes ({@link #CHAT}, {@link #COMPLETIONS}). */
    public boolean isOpenAi() {
        return this == CHAT || this == COMPLETIONS;
    }

    /** A fresh decoder for one stream of this kind (some keep state across events). */
    PayloadDecoder newDecoder() {
        return switch (this) {
            case CHAT, COMPLETIONS -> OpenAiChunkDecoder::decode;
            case TGI_GENERATE_STREAM -> new TgiDecoder();
            case OLLAMA_GENERATE, OLLAMA_CHAT -> new OllamaDecoder();
            case LLAMACPP_COMPLETION -> new LlamaCppDecoder();
            case SGLANG_GENERATE -> new SglangDecoder();
            case RESPONSES -> new ResponsesDecoder();
            case MESSAGES -> new MessagesDecoder();
            case EMBEDDINGS, OLLAMA_EMBED, RERANK, TEI_RERANK, SCORE -> new PoolingDecoder(this);
        };
    }

    /**
     * The kind named {@code value}: a {@link #label()} ({@code chat}, {@code tgi}, {@code ollama-chat}
     * ...) or a constant name ({@code OLLAMA_CHAT}), case-insensitive; {@code _} and {@code -} are
     * interchangeable.
     *
     * @throws IllegalArgumentException naming the value and listing the valid ones
     */
    public static ApiKind parse(String value) {
        if (value != null) {
            String v = value.strip().toLowerCase(Locale.ROOT).replace('_', '-');
            for (ApiKind k : values()) {
                if (k.label.equals(v) || k.name().toLowerCase(Locale.ROOT).replace('_', '-').equals(v)) {
                    return k;
                }
            }
        }
        throw new IllegalArgumentException("unknown API '" + value + "'; valid values: " + String.join(", ", labels()));
    }

    /** Every {@link #label()}, in declaration order. */
    public static List<String> labels() {
        List<String> out = new ArrayList<>();
        for (ApiKind k : values()) {
            out.add(k.label);
        }
        return List.copyOf(out);
    }
}
