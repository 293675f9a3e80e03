package dev.kneepoint.workload;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.HttpClients;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.workload.JsonPost.Reply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * Counts tokens with the server's own tokenize endpoint. The {@link TokenizeDialect} is detected on the first
 * call, the one the target's API suggests tried first: vLLM/SGLang/simulator ({@code POST /tokenize
 * {"model","prompt"}}), llama-server ({@code {"content"}}), TGI ({@code {"inputs"}} → a list) and
 * llama_cpp.server ({@code POST /extras/tokenize {"input"}}). Chat prompts are counted with the server's chat
 * tokenizer where it has one (vLLM and the simulator: {@code /tokenize {"messages"}}; llama-server:
 * {@code /apply-template}; TGI: {@code /chat_tokenize}), otherwise with one non-streamed
 * {@code /v1/chat/completions} of {@code max_tokens: 1} whose {@code usage.prompt_tokens} is the count (SGLang,
 * llama_cpp.server, older TGI). Uses the target's HTTP client; thread-safe.
 */
final class ServerTokenizer extends RemoteTokenCounter {
    private static final String PROBE = "hello";

    private enum ChatVia { UNKNOWN, TOKENIZER, COMPLETION }

    private final ApiKind hint;
    private volatile TokenizeDialect dialect;
    private volatile ChatVia chatVia = ChatVia.UNKNOWN;

    ServerTokenizer(HttpUrl baseUrl, String model) {
        this(baseUrl, model, HttpClients.shared(), ApiKind.CHAT);
    }

    /** With the target's client ({@link HttpClients#forTarget}): its API key, headers and TLS options. */
    ServerTokenizer(HttpUrl baseUrl, String model, OkHttpClient http) {
        this(baseUrl, model, http, ApiKind.CHAT);
    }

    /** As above, trying first the dialect {@code hint} (the target's API) suggests. */
    ServerTokenizer(HttpUrl baseUrl, String model, OkHttpClient http, ApiKind hint) {
        super(baseUrl, model, http);
        this.hint = hint;
    }

    @Override
    public int count(String text) {
        TokenizeDialect d = dialect;
        if (d == null) {
            return detect(text);
        }
        Reply r = post(d.endpoint(), d.body(text, model));
        int n = d.parse(r.ok().json(), text);
        if (n < 0) {
            throw new TokenizerException("POST " + url(d.endpoint()) + " (" + d.label() + ") answered without tokens: "
                    + r.snippet());
        }
        return n;
    }

    /** Tries each dialect with {@code text} (or a probe word when empty) until one answers in its shape. */
    private synchronized int detect(String text) {
        if (dialect != null) {
            return count(text);
        }
        String probe = text.isEmpty() ? PROBE : text;
        List<String> tried = new ArrayList<>();
        for (TokenizeDialect d : TokenizeDialect.order(hint)) {
            Reply r = post(d.endpoint(), d.body(probe, model));
            int n = r.successful() ? d.parse(r.json(), probe) : -1;
            if (n >= 0) {
                dialect = d;
                return text.isEmpty() ? count(text) : n;
            }
            tried.add("POST " + url(d.endpoint()) + " " + d.bodyShape() + " → "
                    + (r.successful() ? "an answer of another shape: " : "HTTP " + r.code() + ": ") + r.snippet());
        }
        throw new TokenizerException("no tokenize endpoint of vLLM/SGLang, llama.cpp, TGI or llama_cpp.server answered at "
                + root + " (" + String.join("; ", tried) + "). Count prompts locally instead: "
                + "TokenCounter.openAi(...) or TokenCounter.of(...), or accept TokenCounter.estimate()");
    }

    @Override
    public int countChat(List<RequestSpec.ChatMessage> messages) {
        List<Map<String, String>> msgs = wireMessages(messages);
        if (dialect == null) {
            count(PROBE);
        }
        if (chatVia == ChatVia.COMPLETION) {
            return viaCompletion(msgs);
        }
        TokenizeDialect d = dialect;
        if (d == TokenizeDialect.LLAMA_CPP) {
            JsonNode prompt = post("apply-template", Map.of("messages", msgs)).ok().json().get("prompt");
            if (prompt == null || !prompt.isTextual()) {
                throw new TokenizerException(url("apply-template") + " did not return a prompt");
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("content", prompt.asText());
            body.put("add_special", true);
            return countReply(d, post(d.endpoint(), body), prompt.asText());
        }
        if (d == TokenizeDialect.LLAMA_CPP_PYTHON) {
            chatVia = ChatVia.COMPLETION; // llama_cpp.server has no chat tokenizer or template endpoint
            return viaCompletion(msgs);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model", model);
        body.put("messages", msgs);
        String endpoint = d == TokenizeDialect.TGI ? "chat_tokenize" : d.endpoint();
        Reply r = post(endpoint, body);
        if (chatVia == ChatVia.UNKNOWN && r.code() >= 400 && r.code() < 500) {
            chatVia = ChatVia.COMPLETION; // SGLang's /tokenize takes prompts only; TGI before /chat_tokenize
            return viaCompletion(msgs);
        }
        chatVia = ChatVia.TOKENIZER;
        JsonNode reply = r.ok().json();
        int n = d == TokenizeDialect.TGI
                ? TokenizeDialect.TGI.parse(reply == null ? null : reply.get("tokenize_response"), "x")
                : d.parse(reply, "x");
        if (n < 0) {
            throw new TokenizerException(url(endpoint) + " answered chat messages without count or tokens: " + r.snippet());
        }
        return n;
    }

    private int countReply(TokenizeDialect d, Reply r, String text) {
        int n = d.parse(r.ok().json(), text);
        if (n < 0) {
            throw new TokenizerException(url(d.endpoint()) + " answered without tokens: " + r.snippet());
        }
        return n;
    }

    /** The chat prompt's tokens as {@code usage.prompt_tokens} of one non-streamed 1-token chat completion. */
    private int viaCompletion(List<Map<String, String>> msgs) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model", model);
        body.put("messages", msgs);
        body.put("max_tokens", 1);
        body.put("temperature", 0);
        body.put("stream", false);
        Reply r = post("v1/chat/completions", body).ok();
        JsonNode usage = r.json() == null ? null : r.json().get("usage");
        JsonNode n = usage == null ? null : usage.get("prompt_tokens");
        if (n == null || !n.isIntegralNumber()) {
            throw new TokenizerException("POST " + url("v1/chat/completions") + " (max_tokens 1, to count a chat prompt: "
                    + "the server's tokenize endpoint takes no messages) answered without usage.prompt_tokens: " + r.snippet());
        }
        return n.asInt();
    }

    @Override
    public String describe() {
        TokenizeDialect d = dialect;
        if (d == null) {
            return "server:" + url("tokenize") + " (shape not yet detected)";
        }
        return "server:" + url(d.endpoint()) + " (" + d.label()
                + (chatVia == ChatVia.COMPLETION ? "; chat counted by usage.prompt_tokens of a 1-token chat completion" : "")
                + ")";
    }
}
