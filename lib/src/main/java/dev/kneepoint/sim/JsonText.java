package dev.kneepoint.sim;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The simulator's JSON: one shared mapper for the requests it reads, and escaping for hand-built responses. */
final class JsonText {
    /** The Jackson mapper of every simulator in the process (default settings; thread-safe). */
    static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonText() {
    }

    /** {@code root}, a request body that must be a JSON object; else an {@link IllegalArgumentException} saying so. */
    static com.fasterxml.jackson.databind.JsonNode object(com.fasterxml.jackson.databind.JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("request body must be a JSON object");
        }
        return root;
    }

    static String escape(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = switch (c) {
                case '"' -> "\\\"";
                case '\\' -> "\\\\";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                default -> c < 0x20 ? String.format("\\u%04x", (int) c) : null;
            };
            if (rep != null && sb == null) {
                sb = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (sb != null) {
                if (rep != null) {
                    sb.append(rep);
                } else {
                    sb.append(c);
                }
            }
        }
        return sb == null ? s : sb.toString();
    }
}
