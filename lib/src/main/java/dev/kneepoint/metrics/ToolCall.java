package dev.kneepoint.metrics;

import java.util.Objects;

/**
 * One tool call of an answer, whole: the call's id, the function's name and its arguments (JSON text, as generated:
 * an answer cut by {@code max_tokens} may end mid-JSON). Kept with the answer's text when a request asks for it
 * ({@code RequestSpec.keepResponseText}), so that an agent's next turn can carry the call and its result.
 *
 * @param id        the call's id as the server gave it; "" when it gave none
 * @param name      the function's name; "" when the server streamed none
 * @param arguments the arguments' JSON text; "" when none
 */
public record ToolCall(String id, String name, String arguments) {
    public ToolCall {
        id = Objects.requireNonNullElse(id, "");
        name = Objects.requireNonNullElse(name, "");
        arguments = Objects.requireNonNullElse(arguments, "");
    }
}
