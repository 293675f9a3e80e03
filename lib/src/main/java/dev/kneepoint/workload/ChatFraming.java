package dev.kneepoint.workload;

import dev.kneepoint.request.RequestSpec;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * How a chat template frames a prompt, in tokens: a fixed cost per message and a fixed cost to prime the reply (the
 * generation prompt). A local counter adds them to its counts of each message's own text.
 *
 * @param perMessage   tokens the template adds around each message
 * @param replyPriming tokens the template adds once, for the reply
 */
record ChatFraming(int perMessage, int replyPriming) {
    /** A generic template estimate: 4 tokens per message, 3 for the generation prompt. */
    static final ChatFraming GENERIC = new ChatFraming(4, 3);
    /** OpenAI's documented framing: 3 tokens per message (its role and content counted apart), 3 to prime the reply. */
    static final ChatFraming OPENAI = new ChatFraming(3, 3);

    /** The chat prompt's tokens: this framing plus {@code message}'s count of each message. */
    int count(List<RequestSpec.ChatMessage> messages, ToIntFunction<RequestSpec.ChatMessage> message) {
        int total = replyPriming;
        for (RequestSpec.ChatMessage m : messages) {
            total += perMessage + message.applyAsInt(m);
        }
        return total;
    }
}
