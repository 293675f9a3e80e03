package dev.kneepoint.sim;

import java.util.List;
import java.util.Locale;

/**
 * The simulator's chat template: how chat messages become prompt tokens.
 *
 * <p>Each message costs {@value #PER_MESSAGE_TOKENS} template tokens plus its content's tokens
 * ({@code <|start|>}, the role, {@code <|sep|>}, content, {@code <|end|>}); the generation prompt
 * adds {@value #GENERATION_PROMPT_TOKENS} ({@code <|start|>assistant<|sep|>}). So a chat prompt of
 * messages with content token counts c1..cn has exactly {@code sum(4 + ci) + 3} tokens; a message's media
 * ({@link MediaCost}) follow its text.
 */
public final class ChatTemplate {
    /** Template tokens added per message. */
    public static final int PER_MESSAGE_TOKENS = 4;
    /** Template tokens of the assistant generation prompt. */
    public static final int GENERATION_PROMPT_TOKENS = 3;

    static final long START = 1;
    static final long SEP = 2;
    static final long END = 3;
    private static final List<String> ROLES = List.of("system", "user", "assistant", "tool", "developer");
    private static final long ROLE_BASE = 16;
    private static final long OTHER_ROLE = ROLE_BASE + ROLES.size();

    /** One chat message: a role, its text content, and the prompt tokens of the media it carries (none: empty). */
    public record Message(String role, String content, long[] media) {
        public Message {
            media = media == null ? new long[0] : media;
        }

        /** A text message. */
        public Message(String role, String content) {
            this(role, content, null);
        }
    }

    private ChatTemplate() {
    }

    /** Token ids of a whole chat prompt, generation prompt included. */
    public static long[] encode(List<Message> messages) {
        int total = GENERATION_PROMPT_TOKENS;
        long[][] contents = new long[messages.size()][];
        for (int i = 0; i < contents.length; i++) {
            long[] text = Tokenizer.encode(messages.get(i).content());
            long[] media = messages.get(i).media();
            contents[i] = media.length == 0 ? text : java.util.stream.LongStream.concat(
                    java.util.Arrays.stream(text), java.util.Arrays.stream(media)).toArray();
            total += PER_MESSAGE_TOKENS + contents[i].length;
        }
        long[] ids = new long[total];
        int k = 0;
        for (int i = 0; i < contents.length; i++) {
            ids[k++] = START;
            ids[k++] = roleId(messages.get(i).role());
            ids[k++] = SEP;
            System.arraycopy(contents[i], 0, ids, k, contents[i].length);
            k += contents[i].length;
            ids[k++] = END;
        }
        ids[k++] = START;
        ids[k++] = roleId("assistant");
        ids[k] = SEP;
        return ids;
    }

    /** Token count of a chat prompt (same as {@code encode(messages).length}). */
    public static int count(List<Message> messages) {
        int total = GENERATION_PROMPT_TOKENS;
        for (Message m : messages) {
            total += PER_MESSAGE_TOKENS + Tokenizer.count(m.content()) + m.media().length;
        }
        return total;
    }

    private static long roleId(String role) {
        int i = ROLES.indexOf(role.toLowerCase(Locale.ROOT));
        return i < 0 ? OTHER_ROLE : ROLE_BASE + i;
    }

    static String specialText(long id) {
        if (id == START) {
            return "<|start|>";
        }
        if (id == SEP) {
            return "<|sep|>";
        }
        if (id == END) {
            return "<|end|>\n";
        }
        if (id >= ROLE_BASE && id < OTHER_ROLE) {
            return ROLES.get((int) (id - ROLE_BASE));
        }
        return id == OTHER_ROLE ? "other" : "<|unk|>";
    }
}
