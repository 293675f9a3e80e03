package dev.kneepoint.workload;

import dev.kneepoint.request.RequestSpec;
import java.util.List;
import java.util.Objects;
import java.util.function.ToIntFunction;

/** A {@link TokenCounter} over a text function; chat is counted with a generic template estimate. */
record FunctionTokenCounter(String description, boolean exact, ToIntFunction<String> fn) implements TokenCounter {
    FunctionTokenCounter {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(fn, "fn");
    }

    @Override
    public int count(String text) {
        return fn.applyAsInt(text);
    }

    @Override
    public int countChat(List<RequestSpec.ChatMessage> messages) {
        return ChatFraming.GENERIC.count(messages, m -> fn.applyAsInt(m.content()));
    }

    @Override
    public String describe() {
        return description;
    }
}
