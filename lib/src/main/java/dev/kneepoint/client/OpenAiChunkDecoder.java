package dev.kneepoint.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decodes one SSE data payload of an OpenAI-compatible stream, {@code /v1/chat/completions}
 * ({@code chat.completion.chunk}) or {@code /v1/completions} ({@code text_completion}), and also a
 * whole non-streaming response (whose choices carry {@code message} instead of {@code delta}).
 *
 * <p>The common shape (strings without escapes, integer usage counts) is read by a hand-written
 * scanner without a parser object per event ({@link ChunkFastPath}, which gives up on anything else);
 * the rest with Jackson's streaming parser over a shared {@link JsonFactory}. Both keep only the
 * fields that matter for measurement and skip the rest without building a tree, and give the same
 * result. Stateless and thread-safe.
 */
final class OpenAiChunkDecoder {

    /**
     * The process-wide Jackson mapper used by the client (thread-safe once configured). Its buffers
     * come from one shared concurrent pool instead of Jackson's default thread-local pool: requests
     * run on short-lived virtual threads, where a thread-local pool allocates fresh buffers for every
     * request.
     */
    static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build());
    private static final JsonFactory JSON = MAPPER.getFactory();
    /** Larger payloads always take the Jackson path (whose limits on string and number sizes then apply). */
    private static final int FAST_PATH_MAX_CHARS = 1 << 20;

    private OpenAiChunkDecoder() {
    }

    /** Decodes one payload; never throws for bad input, which becomes {@link StreamPayload.Malformed}. */
    public static StreamPayload decode(String data) {
        if (data.length() < 16 && data.strip().equals("[DONE]")) {
            return StreamPayload.DONE;
        }
        if (data.length() <= FAST_PATH_MAX_CHARS) {
            StreamPayload.Chunk fast = ChunkFastPath.tryDecode(data);
            if (fast != null) {
                return fast;
            }
        }
        return decodeGeneral(data);
    }

    /** The general path: Jackson's streaming parser (package-private for the fast path's equivalence test). */
    static StreamPayload decodeGeneral(String data) {
        try (JsonParser p = JSON.createParser(data)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new StreamPayload.Malformed("expected a JSON object, got: " + snippet(data));
            }
            Fields f = new Fields();
            eachField(p, JsonToken.START_OBJECT, (name, t) -> {
                switch (name) {
                    case "choices" -> readChoices(p, t, f);
                    case "usage" -> readUsage(p, t, f);
                    case "error" -> f.error = readError(p, t);
                    case "object" -> f.objectIsError = t == JsonToken.VALUE_STRING && "error".equals(p.getText());
                    case "message" -> f.topMessage = t == JsonToken.VALUE_STRING ? p.getText() : skip(p);
                    case "timings" -> f.timings = readNumbers(p, t);
                    default -> p.skipChildren();
                }
            });
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return new StreamPayload.Malformed("trailing content after the JSON object: " + snippet(data));
            }
            if (f.error != null) {
                return new StreamPayload.ServerError(f.error);
            }
            if (f.objectIsError) {
                return new StreamPayload.ServerError(f.topMessage == null ? snippet(data) : f.topMessage);
            }
            return new StreamPayload.Chunk(f.content, f.reasoning, f.role, f.finishReason, f.choices,
                    f.promptTokens, f.completionTokens, f.reasoningTokens, f.timings, f.toolCalls, f.cachedTokens);
        } catch (JsonProcessingException e) {
            return new StreamPayload.Malformed("invalid JSON (" + e.getOriginalMessage() + "): " + snippet(data));
        } catch (IOException e) {
            return new StreamPayload.Malformed("unreadable JSON: " + e.getMessage());
        }
    }

    private static final class Fields {
        String content;
        String reasoning;
        String role;
        String finishReason;
        int choices = -1;
        int promptTokens = -1;
        int completionTokens = -1;
        int reasoningTokens = -1;
        String error;
        boolean objectIsError;
        String topMessage;
        Map<String, Double> timings;
        java.util.List<StreamPayload.ToolCallDelta> toolCalls;
        int cachedTokens = -1;
        String callName;
        String callArguments;

        void addCall(int index, String id) {
            if (toolCalls == null) {
                toolCalls = new java.util.ArrayList<>(1);
            }
            toolCalls.add(new StreamPayload.ToolCallDelta(index, id, callName, callArguments));
        }
    }

    private static void readChoices(JsonParser p, JsonToken t, Fields f) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        f.choices = 0;
        while (p.nextToken() == JsonToken.START_OBJECT) {
            f.choices++;
            eachField(p, JsonToken.START_OBJECT, (name, v) -> {
                switch (name) {
                    case "delta", "message" -> readDelta(p, v, f);
                    case "text" -> f.content = concat(f.content, v == JsonToken.VALUE_STRING ? p.getText() : skip(p));
                    case "finish_reason" -> {
                        if (v == JsonToken.VALUE_STRING && f.finishReason == null) {
                            f.finishReason = p.getText();
                        }
                    }
                    default -> p.skipChildren();
                }
            });
        }
        if (p.currentToken() != JsonToken.END_ARRAY) {
            throw new JsonParseFailure(p, "choices must be an array of objects");
        }
    }

    private static void readDelta(JsonParser p, JsonToken t, Fields f) throws IOException {
        eachField(p, t, (name, v) -> {
            if (name.equals("tool_calls")) {
                readToolCalls(p, v, f);
                return;
            }
            if (name.equals("function_call")) {
                f.callName = null;
                f.callArguments = null;
                if (readFunction(p, v, f)) {
                    f.addCall(0, null);
                }
                return;
            }
            String s = v == JsonToken.VALUE_STRING ? p.getText() : skip(p);
            switch (name) {
                case "content" -> f.content = concat(f.content, s);
                case "reasoning_content", "reasoning" -> f.reasoning = concat(f.reasoning, s);
                case "role" -> f.role = s != null ? s : f.role;
                default -> {
                }
            }
        });
    }

    /** A {@code tool_calls} array: each object entry one fragment ({@code index}, {@code id}, {@code function}). */
    private static void readToolCalls(JsonParser p, JsonToken t, Fields f) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        int position = 0;
        for (JsonToken e = p.nextToken(); e != null && e != JsonToken.END_ARRAY; e = p.nextToken()) {
            int[] index = {position++};
            String[] id = {null};
            f.callName = null;
            f.callArguments = null;
            boolean object = eachField(p, e, (name, v) -> {
                switch (name) {
                    case "function" -> readFunction(p, v, f);
                    case "index" -> index[0] = intOr(p, v, index[0]);
                    case "id" -> id[0] = concat(id[0], v == JsonToken.VALUE_STRING ? p.getText() : skip(p));
                    default -> p.skipChildren();
                }
            });
            if (object) {
                f.addCall(index[0], id[0]);
            }
        }
    }

    /**
     * A {@code function} object's {@code name} and {@code arguments} into the fragment being read; false when the value
     * is not an object.
     */
    private static boolean readFunction(JsonParser p, JsonToken t, Fields f) throws IOException {
        return eachField(p, t, (name, v) -> {
            String s = v == JsonToken.VALUE_STRING ? p.getText() : skip(p);
            if (name.equals("name")) {
                f.callName = concat(f.callName, s);
            } else if (name.equals("arguments")) {
                f.callArguments = concat(f.callArguments, s);
            }
        });
    }

    private static void readUsage(JsonParser p, JsonToken t, Fields f) throws IOException {
        eachField(p, t, (name, v) -> {
            switch (name) {
                case "prompt_tokens" -> f.promptTokens = intOr(p, v, f.promptTokens);
                case "completion_tokens" -> f.completionTokens = intOr(p, v, f.completionTokens);
                case "completion_tokens_details" -> {
                    Map<String, Double> d = readNumbers(p, v);
                    Double r = d.get("reasoning_tokens");
                    if (r != null) {
                        f.reasoningTokens = r.intValue();
                    }
                }
                case "prompt_tokens_details" -> {
                    Double c = readNumbers(p, v).get("cached_tokens");
                    if (c != null) {
                        f.cachedTokens = c.intValue();
                    }
                }
                default -> p.skipChildren();
            }
        });
    }

    static String readError(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (!objectOrSkip(p, t)) {
            return t == JsonToken.VALUE_NULL ? null : "error";
        }
        String message = null;
        String type = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            String s = v == JsonToken.VALUE_STRING ? p.getText() : skip(p);
            if ("message".equals(name)) {
                message = s;
            } else if ("type".equals(name)) {
                type = s;
            }
        }
        if (message != null) {
            return message;
        }
        return type != null ? type : "error object without a message";
    }

    private static Map<String, Double> readNumbers(JsonParser p, JsonToken t) throws IOException {
        Map<String, Double> out = new LinkedHashMap<>();
        boolean object = eachField(p, t, (name, v) -> {
            if (v.isNumeric()) {
                out.put(name, p.getDoubleValue());
            } else {
                p.skipChildren();
            }
        });
        return object ? out : Map.of();
    }

    /** Reads one field of an object, the parser standing on the first token {@code v} of its value. */
    private interface FieldReader {
        void read(String name, JsonToken v) throws IOException;
    }

    /**
     * Hands each field of the object that {@code t} starts to {@code reader}, in order, and returns true; when
     * {@code t} starts no object, skips the value it starts and returns false.
     */
    private static boolean eachField(JsonParser p, JsonToken t, FieldReader reader) throws IOException {
        if (!objectOrSkip(p, t)) {
            return false;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            reader.read(name, p.nextToken());
        }
        return true;
    }

    /** True when {@code t} starts an object; else skips the value {@code t} starts and returns false. */
    private static boolean objectOrSkip(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.START_OBJECT) {
            return true;
        }
        p.skipChildren();
        return false;
    }

    private static int intOr(JsonParser p, JsonToken v, int dflt) throws IOException {
        if (v.isNumeric()) {
            return p.getIntValue();
        }
        p.skipChildren();
        return dflt;
    }

    /** Skips the current value and returns null (for fields whose non-string values are ignored). */
    private static String skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    private static String concat(String a, String b) {
        if (b == null || b.isEmpty()) {
            return a;
        }
        return a == null || a.isEmpty() ? b : a + b;
    }

    static String snippet(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    private static final class JsonParseFailure extends JsonProcessingException {
        JsonParseFailure(JsonParser p, String message) {
            super(message, p.currentLocation());
        }
    }
}
