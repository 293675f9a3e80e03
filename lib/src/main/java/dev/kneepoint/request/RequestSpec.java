package dev.kneepoint.request;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to send: one request as the workload describes it. The target decides the wire shape
 * (chat or completions); the load step decides when.
 *
 * @param prompt                the prompt text (for chat: the user message when {@code messages} is empty)
 * @param messages              full chat history for multi-turn requests; empty for single-turn
 * @param maxTokens             {@code max_tokens}; -1 to leave it to the server
 * @param requestedPromptTokens the prompt length the workload intended (-1 unknown)
 * @param extraBody             fields merged into the JSON body (e.g. {@code ignore_eos}, {@code min_tokens})
 * @param tag                   traffic class tag carried to the request record
 * @param keepResponseText      opt-in: the client keeps the answer's text (the concatenated content deltas) in
 *                              {@link dev.kneepoint.metrics.RequestRecord.Response#responseText()}, e.g. for the
 *                              next turn of a chat session; off by default (memory), and never written to
 *                              {@code requests.jsonl}
 * @param inputs                the batch of a pooling request ({@code ApiKind.isPooling}): for embeddings the texts to
 *                              embed, for rerank and score the documents scored against {@code prompt} as the query;
 *                              empty for a generation request (an embeddings request without inputs embeds
 *                              {@code prompt} alone)
 * @param model                 the model this request asks for, overriding the target's (a model or LoRA adapter of a
 *                              mix, {@code ModelMix}); null: the target's
 */
public record RequestSpec(
        String prompt,
        List<ChatMessage> messages,
        int maxTokens,
        int requestedPromptTokens,
        Map<String, Object> extraBody,
        String tag,
        boolean keepResponseText,
        List<String> inputs,
        String model) {

    /** One chat message: its text, then the media it carries (none for a text message). */
    public record ChatMessage(String role, String content, List<Media> media) {
        public ChatMessage {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(content, "content");
            media = media == null ? List.of() : List.copyOf(media);
        }

        /** A text message. */
        public ChatMessage(String role, String content) {
            this(role, content, List.of());
        }
    }

    /**
     * An image or an audio clip a chat message carries, as its MIME type ({@code image/png}, {@code audio/wav}) and
     * base64 data; each API's body writes it in its own shape (docs/SERVERS.md "Request bodies").
     */
    public record Media(String mimeType, String base64) {
        public Media {
            Objects.requireNonNull(mimeType, "mimeType");
            Objects.requireNonNull(base64, "base64");
        }

        /** True for an image, false for audio. */
        public boolean image() {
            return mimeType.startsWith("image/");
        }

        /** The data as a {@code data:} URL. */
        public String dataUrl() {
            return "data:" + mimeType + ";base64," + base64;
        }
    }

    public RequestSpec {
        Objects.requireNonNull(prompt, "prompt");
        messages = messages == null ? List.of() : List.copyOf(messages);
        extraBody = extraBody == null ? Map.of() : Map.copyOf(extraBody);
        tag = tag == null || tag.isEmpty() ? "default" : tag;
        inputs = inputs == null ? List.of() : List.copyOf(inputs);
    }

    /** A request without a pooling batch, to the target's model. */
    public RequestSpec(String prompt, List<ChatMessage> messages, int maxTokens, int requestedPromptTokens,
                       Map<String, Object> extraBody, String tag, boolean keepResponseText) {
        this(prompt, messages, maxTokens, requestedPromptTokens, extraBody, tag, keepResponseText, List.of(), null);
    }

    /** A request whose answer text is not kept (the usual case). */
    public RequestSpec(String prompt, List<ChatMessage> messages, int maxTokens, int requestedPromptTokens,
                       Map<String, Object> extraBody, String tag) {
        this(prompt, messages, maxTokens, requestedPromptTokens, extraBody, tag, false, List.of(), null);
    }

    /** A single-turn request with a prompt and an output budget. */
    public static RequestSpec of(String prompt, int maxTokens) {
        return new RequestSpec(prompt, List.of(), maxTokens, -1, Map.of(), "default");
    }

    public RequestSpec withTag(String newTag) {
        return new RequestSpec(prompt, messages, maxTokens, requestedPromptTokens, extraBody, newTag, keepResponseText,
                inputs, model);
    }

    /** The same request with {@code fields} added to its extra body (a field already there takes the new value). */
    public RequestSpec withExtraBody(Map<String, Object> fields) {
        Map<String, Object> merged = new java.util.LinkedHashMap<>(extraBody);
        merged.putAll(fields);
        return new RequestSpec(prompt, messages, maxTokens, requestedPromptTokens, merged, tag, keepResponseText, inputs,
                model);
    }

    /** The same request, asking the client to keep (or not) the answer's text; see {@link #keepResponseText()}. */
    public RequestSpec withKeepResponseText(boolean keep) {
        return new RequestSpec(prompt, messages, maxTokens, requestedPromptTokens, extraBody, tag, keep, inputs, model);
    }

    /**
     * The output length this request asks for: {@code max_tokens}, else an output budget passed as an
     * extra field ({@code max_completion_tokens} for OpenAI, {@code n_predict} for llama.cpp); -1 when none.
     */
    public int requestedOutputTokens() {
        if (maxTokens >= 0) {
            return maxTokens;
        }
        for (String field : new String[] {"max_completion_tokens", "max_tokens", "n_predict"}) {
            if (extraBody.get(field) instanceof Number n && n.intValue() >= 0) {
                return n.intValue();
            }
        }
        return -1;
    }

    /** The same request with {@code newMessages} and {@code promptTokens} requested (-1: unknown). */
    public RequestSpec withMessages(List<ChatMessage> newMessages, int promptTokens) {
        return new RequestSpec(prompt, newMessages, maxTokens, promptTokens, extraBody, tag, keepResponseText, inputs,
                model);
    }

    /**
     * The same request carrying {@code batch} as its pooling inputs, and {@code promptTokens} requested: the tokens of
     * the whole batch (-1: unknown).
     */
    public RequestSpec withInputs(List<String> batch, int promptTokens) {
        return new RequestSpec(prompt, messages, maxTokens, promptTokens, extraBody, tag, keepResponseText, batch,
                model);
    }

    /** The same request to {@code name} instead of the target's model (null: the target's). */
    public RequestSpec withModel(String name) {
        return new RequestSpec(prompt, messages, maxTokens, requestedPromptTokens, extraBody, tag, keepResponseText,
                inputs, name);
    }

    /** The model to send: this request's, else {@code targetModel}. */
    public String modelOr(String targetModel) {
        return model != null ? model : targetModel;
    }

    /** True when a message carries media (then the body is written through its map, in each API's shape). */
    public boolean hasMedia() {
        for (ChatMessage m : messages) { // on every request's body: no stream pipeline
            if (!m.media().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** The chat messages to send: {@code messages}, or one user message holding {@code prompt}. */
    public List<ChatMessage> chatMessages() {
        return messages.isEmpty() ? List.of(new ChatMessage("user", prompt)) : messages;
    }
}
