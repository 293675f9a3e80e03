package dev.kneepoint.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decodes the one JSON answer of a pooling API into a {@link StreamPayload.Pooled}: how many items it returned and
 * the prompt tokens its usage reports. Items are counted without reading them (an embedding answer may be megabytes
 * of floats): the entries of {@code data} (OpenAI embeddings, vLLM score), {@code embeddings} (Ollama),
 * {@code results} (rerank), or of the bare array TEI's {@code /rerank} answers with. Prompt tokens: {@code
 * usage.prompt_tokens}, else {@code usage.total_tokens} (vLLM's and llama.cpp's rerank report only that; a pooling
 * request generates nothing, so both are the prompt), else Ollama's {@code prompt_eval_count}; -1 when none (TEI).
 * Ollama's {@code *_duration} fields become timings in ms, as for its generation APIs.
 */
final class PoolingDecoder implements PayloadDecoder {
    private static final double NS_TO_MS = 1e-6;
    private final ApiKind kind;

    PoolingDecoder(ApiKind kind) {
        this.kind = kind;
    }

    @Override
    public StreamPayload decode(String data) {
        try (JsonParser p = OpenAiChunkDecoder.MAPPER.getFactory().createParser(data)) {
            JsonToken first = p.nextToken();
            Answer a = new Answer();
            if (first == JsonToken.START_ARRAY && kind == ApiKind.TEI_RERANK) {
                a.items = count(p);
            } else if (first == JsonToken.START_OBJECT) {
                readObject(p, a);
            } else {
                return new StreamPayload.Malformed("expected a JSON object"
                        + (kind == ApiKind.TEI_RERANK ? " or array" : "") + ", got: " + OpenAiChunkDecoder.snippet(data));
            }
            if (p.nextToken() != null) {
                return new StreamPayload.Malformed("trailing content after the JSON answer: "
                        + OpenAiChunkDecoder.snippet(data));
            }
            if (a.error != null || a.objectIsError) {
                return new StreamPayload.ServerError(a.error != null ? a.error
                        : a.message != null ? a.message : OpenAiChunkDecoder.snippet(data));
            }
            if (a.items < 0) {
                return new StreamPayload.Malformed("a " + kind.label() + " answer without its list of "
                        + itemsName() + ": " + OpenAiChunkDecoder.snippet(data));
            }
            int prompt = a.usagePrompt >= 0 ? a.usagePrompt : a.usageTotal >= 0 ? a.usageTotal : a.promptEvalCount;
            return new StreamPayload.Pooled(a.items, prompt, a.timings);
        } catch (JsonProcessingException e) {
            return new StreamPayload.Malformed("invalid JSON (" + e.getOriginalMessage() + "): "
                    + OpenAiChunkDecoder.snippet(data));
        } catch (IOException e) {
            return new StreamPayload.Malformed("unreadable JSON: " + e.getMessage());
        }
    }

    /** What the answer's items are called in its shape, for a message. */
    private String itemsName() {
        return switch (kind) {
            case EMBEDDINGS -> "embeddings (data)";
            case OLLAMA_EMBED -> "embeddings";
            case RERANK -> "results";
            case SCORE -> "scores (data)";
            default -> "items";
        };
    }

    private static final class Answer {
        int items = -1;
        int usagePrompt = -1;
        int usageTotal = -1;
        int promptEvalCount = -1;
        String error;
        boolean objectIsError;
        String message;
        final Map<String, Double> timings = new LinkedHashMap<>();
    }

    private void readObject(JsonParser p, Answer a) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "data", "embeddings", "results" -> {
                    if (v == JsonToken.START_ARRAY) {
                        a.items = count(p);
                    } else {
                        p.skipChildren();
                    }
                }
                case "usage" -> readUsage(p, v, a);
                case "error" -> a.error = OpenAiChunkDecoder.readError(p, v);
                case "object" -> a.objectIsError = v == JsonToken.VALUE_STRING && "error".equals(p.getText());
                case "message" -> a.message = v == JsonToken.VALUE_STRING ? p.getText() : skip(p);
                case "prompt_eval_count" -> a.promptEvalCount = v.isNumeric() ? p.getIntValue() : -1;
                case "total_duration", "load_duration", "prompt_eval_duration" -> {
                    if (v.isNumeric()) {
                        a.timings.put(name.replace("_duration", "_ms"), p.getDoubleValue() * NS_TO_MS);
                    }
                }
                default -> p.skipChildren();
            }
        }
    }

    private static void readUsage(JsonParser p, JsonToken v, Answer a) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            if (t.isNumeric() && name.equals("prompt_tokens")) {
                a.usagePrompt = p.getIntValue();
            } else if (t.isNumeric() && name.equals("total_tokens")) {
                a.usageTotal = p.getIntValue();
            } else {
                p.skipChildren();
            }
        }
    }

    private static String skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    /** The entries of the array the parser stands at the start of, each skipped unread. */
    private static int count(JsonParser p) throws IOException {
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            p.skipChildren();
            n++;
        }
        return n;
    }
}
