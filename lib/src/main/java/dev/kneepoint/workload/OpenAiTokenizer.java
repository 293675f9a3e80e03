package dev.kneepoint.workload;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.kneepoint.request.RequestSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** {@link TokenCounter#openAi(String)}: tiktoken encodings through jtokkit, chat framing as OpenAI documents it. */
final class OpenAiTokenizer implements TokenCounter {
    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private final String name;
    private final Encoding encoding;

    private OpenAiTokenizer(String name, Encoding encoding) {
        this.name = name;
        this.encoding = encoding;
    }

    static OpenAiTokenizer of(String modelOrEncoding) {
        if (modelOrEncoding == null || modelOrEncoding.isBlank()) {
            throw new IllegalArgumentException("an OpenAI model or encoding name is required, e.g. gpt-4o or o200k_base");
        }
        String n = modelOrEncoding.trim();
        Optional<EncodingType> type = EncodingType.fromName(n);
        Optional<Encoding> enc = type.isPresent() ? Optional.of(REGISTRY.getEncoding(type.get()))
                : REGISTRY.getEncodingForModel(n);
        return new OpenAiTokenizer(n, enc.orElseThrow(() -> new IllegalArgumentException("unknown OpenAI model or"
                + " encoding '" + n + "': give a known model (gpt-4o, gpt-4, gpt-3.5-turbo, ...) or one of the"
                + " encodings " + Arrays.stream(EncodingType.values()).map(EncodingType::getName)
                .collect(Collectors.joining(", ")))));
    }

    @Override
    public int count(String text) {
        return encoding.countTokensOrdinary(text);
    }

    @Override
    public int countChat(List<RequestSpec.ChatMessage> messages) {
        return ChatFraming.OPENAI.count(messages, m -> count(m.role()) + count(m.content()));
    }

    @Override
    public boolean exact() {
        return true;
    }

    @Override
    public String describe() {
        return "local:tiktoken " + encoding.getName() + " (" + name + ")";
    }
}
