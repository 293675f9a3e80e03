package dev.kneepoint.io;

import static dev.kneepoint.io.RequestField.Kind.DECIMAL;
import static dev.kneepoint.io.RequestField.Kind.FLAG;
import static dev.kneepoint.io.RequestField.Kind.INT;
import static dev.kneepoint.io.RequestField.Kind.INTS;
import static dev.kneepoint.io.RequestField.Kind.LONG;
import static dev.kneepoint.io.RequestField.Kind.LONGS;
import static dev.kneepoint.io.RequestField.Kind.MILLIS;
import static dev.kneepoint.io.RequestField.Kind.TEXT;
import static dev.kneepoint.io.RequestField.Kind.TIMINGS;
import static dev.kneepoint.io.RequestField.Presence.ALWAYS;
import static dev.kneepoint.io.RequestField.Presence.DERIVED;
import static dev.kneepoint.io.RequestField.Presence.REQUIRED;
import static dev.kneepoint.io.RequestField.Presence.WHEN_SET;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The fields of a {@code requests.jsonl} line (format version 1), in the order they are written: the one definition
 * of the line's shape, which the writer ({@link RequestJson#write}) and the three readers ({@link RequestJson#read}
 * on a tree, the streaming {@link RequestParser} and its fast path for this exact order,
 * {@link CanonicalRequestParser}) all go through. Each field has its JSON name (the constant's name in lower case),
 * its {@link Presence} (when it is written, and whether a line may lack it), its {@link Kind}, and, in its body, how
 * its value is taken from a {@link RequestRecord} ({@code longOf}, {@code textOf}, ...) and put into a
 * {@link RequestDraft} ({@code putLong}, {@code putText}, ...), the pair of its kind. A line without a field that is
 * not required reads as the field's value in a record as {@link RequestRecord.Builder} starts it (the streaming
 * readers leave such a field as the builder has it).
 *
 * <p>Timestamps are nanoseconds on the run clock (relative to the run start), -1 when absent. Adding a field is
 * adding a constant here (and its component to {@code RequestRecord}); the always-written fields (required or
 * always) come first, since the fast path reads them as one fixed prefix. (Each field's methods are bodies of its
 * constant rather than lambdas: the readers' per-field calls stay cheap before the JIT has compiled them, and the
 * table loads without spinning a class per lambda.)
 */
enum RequestField {
    ID(REQUIRED, LONG) {
        @Override long longOf(RequestRecord r) { return r.id(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.id = v; }
    },
    STEP(REQUIRED, TEXT) {
        @Override String textOf(RequestRecord r) { return r.step(); }
        @Override void putText(RequestDraft d, String v) { d.builder.step = v; }
    },
    TAG(ALWAYS, TEXT) {
        @Override String textOf(RequestRecord r) { return r.tag(); }
        @Override void putText(RequestDraft d, String v) { d.builder.tag = v; }
    },
    WARMUP(ALWAYS, FLAG) {
        @Override boolean flagOf(RequestRecord r) { return r.warmup(); }
        @Override void putFlag(RequestDraft d, boolean v) { d.builder.warmup = v; }
    },
    T_INTENDED_NS(ALWAYS, LONG) {
        @Override long longOf(RequestRecord r) { return r.timing().intendedNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.intendedNanos = v; }
    },
    T_DISPATCH_NS(ALWAYS, LONG) {
        @Override long longOf(RequestRecord r) { return r.timing().dispatchNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.dispatchNanos = v; }
    },
    T_FIRST_BYTE_NS(ALWAYS, LONG) {
        @Override long longOf(RequestRecord r) { return r.timing().firstByteNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.firstByteNanos = v; }
    },
    T_FIRST_TOKEN_NS(ALWAYS, LONG) {
        @Override long longOf(RequestRecord r) { return r.timing().firstTokenNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.firstTokenNanos = v; }
    },
    T_LAST_TOKEN_NS(ALWAYS, LONG) {
        @Override long longOf(RequestRecord r) { return r.timing().lastTokenNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.lastTokenNanos = v; }
    },
    T_END_NS(ALWAYS, LONG) {
        @Override long longOf(RequestRecord r) { return r.timing().endNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.endNanos = v; }
    },
    CHUNK_NS(ALWAYS, LONGS) {
        @Override long[] longsOf(RequestRecord r) { return r.timing().chunkNanos(); }
        @Override void putLongs(RequestDraft d, long[] v) { d.builder.chunkNanos = v; }
    },
    CHUNK_TOKENS(ALWAYS, INTS) {
        @Override int[] intsOf(RequestRecord r) { return r.timing().chunkTokens(); }
        @Override void putInts(RequestDraft d, int[] v) { d.builder.chunkTokens = v; }
    },
    PROMPT_TOKENS(ALWAYS, INT) {
        @Override int intOf(RequestRecord r) { return r.tokens().promptTokens(); }
        @Override void putInt(RequestDraft d, int v) { d.builder.promptTokens = v; }
    },
    OUTPUT_TOKENS(ALWAYS, INT) {
        @Override int intOf(RequestRecord r) { return r.tokens().outputTokens(); }
        @Override void putInt(RequestDraft d, int v) { d.builder.outputTokens = v; }
    },
    REASONING_TOKENS(ALWAYS, INT) {
        @Override int intOf(RequestRecord r) { return r.tokens().reasoningTokens(); }
        @Override void putInt(RequestDraft d, int v) { d.builder.reasoningTokens = v; }
    },
    REQUESTED_PROMPT_TOKENS(ALWAYS, INT) {
        @Override int intOf(RequestRecord r) { return r.tokens().requestedPromptTokens(); }
        @Override void putInt(RequestDraft d, int v) { d.builder.requestedPromptTokens = v; }
    },
    REQUESTED_OUTPUT_TOKENS(ALWAYS, INT) {
        @Override int intOf(RequestRecord r) { return r.tokens().requestedOutputTokens(); }
        @Override void putInt(RequestDraft d, int v) { d.builder.requestedOutputTokens = v; }
    },
    CLIENT_COUNTED_TOKENS(ALWAYS, INT) {
        @Override int intOf(RequestRecord r) { return r.tokens().clientCountedTokens(); }
        @Override void putInt(RequestDraft d, int v) { d.builder.clientCountedTokens = v; }
    },
    /** Its label ({@link TokenSource#label()}); a label that does not parse rejects the line. */
    TOKEN_SOURCE(REQUIRED, TEXT) {
        @Override String textOf(RequestRecord r) { return SOURCE_LABELS[r.tokens().tokenSource().ordinal()]; }
        @Override void putText(RequestDraft d, String v) { d.builder.tokenSource = tokenSource(v); }
    },
    /** Its label ({@link Outcome#label()}); a label that does not parse rejects the line. */
    OUTCOME(REQUIRED, TEXT) {
        @Override String textOf(RequestRecord r) { return r.outcome().label(); }
        @Override void putText(RequestDraft d, String v) { d.builder.outcome = Outcome.parse(v); }
    },
    /** The outcome's detail, which its label leaves out: it joins the outcome when the record is built. */
    OUTCOME_DETAIL(ALWAYS, TEXT) {
        @Override String textOf(RequestRecord r) { return r.outcome().detail(); }
        @Override void putText(RequestDraft d, String v) { d.detail = v; }
    },
    /** {@code null} when the server gave none. */
    FINISH_REASON(ALWAYS, TEXT) {
        @Override String textOf(RequestRecord r) { return r.response().finishReason(); }
        @Override void putText(RequestDraft d, String v) { d.builder.finishReason = v; }
    },
    STREAMED(ALWAYS, FLAG) {
        @Override boolean flagOf(RequestRecord r) { return r.response().streamed(); }
        @Override void putFlag(RequestDraft d, boolean v) { d.builder.streamed = v; }
    },
    SERVER_TIMINGS(ALWAYS, TIMINGS) {
        @Override Map<String, Double> timingsOf(RequestRecord r) { return r.response().serverTimings(); }
        @Override void putTimings(RequestDraft d, Map<String, Double> v) { d.builder.serverTimings = v; }
    },
    /** Only for requests with reasoning: other lines stay as they were. */
    T_FIRST_ANSWER_NS(WHEN_SET, LONG) {
        @Override long longOf(RequestRecord r) { return r.timing().firstAnswerNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.firstAnswerNanos = v; }
    },
    /** Only for answers that called a tool: other lines stay as they were. */
    T_FIRST_TOOL_CALL_NS(WHEN_SET, LONG) {
        @Override long longOf(RequestRecord r) { return r.timing().firstToolCallNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.firstToolCallNanos = v; }
    },
    /** Only when the server reported it (its usage's {@code prompt_tokens_details.cached_tokens}), 0 included. */
    CACHED_PROMPT_TOKENS(WHEN_SET, LONG) {
        @Override long longOf(RequestRecord r) { return r.tokens().cachedPromptTokens(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.cachedPromptTokens = (int) Math.min(v, Integer.MAX_VALUE); }
    },
    /** Only when true (sent again after a stale kept-alive connection): the usual line keeps its compact form. */
    RETRIED(WHEN_SET, FLAG) {
        @Override boolean flagOf(RequestRecord r) { return r.response().retried(); }
        @Override void putFlag(RequestDraft d, boolean v) { d.builder.retried = v; }
    },
    /** Only when true: the answer was to be structured output and is not (StructuredOutput's check). */
    OUTPUT_INVALID(WHEN_SET, FLAG) {
        @Override boolean flagOf(RequestRecord r) { return r.response().outputInvalid(); }
        @Override void putFlag(RequestDraft d, boolean v) { d.builder.outputInvalid = v; }
    },
    /** Only when the request asked for a model of its own (a model mix): the model. */
    MODEL(WHEN_SET, TEXT) {
        @Override String textOf(RequestRecord r) { return r.model(); }
        @Override void putText(RequestDraft d, String v) { d.builder.model = v; }
    },
    /** Only for a pooling answer (embeddings, rerank, score): the vectors or results it returned. */
    ITEMS(WHEN_SET, LONG) {
        @Override long longOf(RequestRecord r) { return r.response().items(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.items = (int) Math.min(v, Integer.MAX_VALUE); }
    },
    /** Only when true (a connection was opened for the request); its phases follow, each only when paid. */
    NEW_CONNECTION(WHEN_SET, FLAG) {
        @Override boolean flagOf(RequestRecord r) { return r.response().connection().fresh(); }
        @Override void putFlag(RequestDraft d, boolean v) { d.builder.newConnection = v; }
    },
    DNS_NS(WHEN_SET, LONG) {
        @Override long longOf(RequestRecord r) { return r.response().connection().dnsNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.dnsNanos = v; }
    },
    CONNECT_NS(WHEN_SET, LONG) {
        @Override long longOf(RequestRecord r) { return r.response().connection().connectNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.connectNanos = v; }
    },
    TLS_NS(WHEN_SET, LONG) {
        @Override long longOf(RequestRecord r) { return r.response().connection().tlsNanos(); }
        @Override void putLong(RequestDraft d, long v) { d.builder.tlsNanos = v; }
    },
    /**
     * Time from {@code t_dispatch} to the response's first byte (its status line): a new connection's setup, the
     * network both ways and the server's answer to the request (most streaming servers send their headers before
     * prefill, some only with the first token).
     */
    TTFB_MS(DERIVED, MILLIS) {
        @Override long longOf(RequestRecord r) { return r.ttfbNanos(); }
    },
    TTFT_MS(DERIVED, MILLIS) {
        @Override long longOf(RequestRecord r) { return r.ttftNanos(); }
    },
    TTFT_SCHED_MS(DERIVED, MILLIS) {
        @Override long longOf(RequestRecord r) { return r.ttftSchedNanos(); }
    },
    E2E_MS(DERIVED, MILLIS) {
        @Override long longOf(RequestRecord r) { return r.e2eNanos(); }
    },
    E2E_SCHED_MS(DERIVED, MILLIS) {
        @Override long longOf(RequestRecord r) { return r.e2eSchedNanos(); }
    },
    TPOT_MS(DERIVED, MILLIS) {
        @Override long longOf(RequestRecord r) { return r.tpotNanos(); }
    },
    SCHEDULE_LAG_MS(DERIVED, MILLIS) {
        @Override long longOf(RequestRecord r) { return r.dispatched() ? Math.max(0, r.scheduleLagNanos()) : -1; }
    },
    USER_TOKENS_PER_S(DERIVED, DECIMAL) {
        @Override double decimalOf(RequestRecord r) { return r.userTokensPerSecond(); }
    };

    /** When a field is written, and what a line without it means. */
    enum Presence {
        /** Always written; a line without it (or with {@code null}) is rejected. Only for a long or a text. */
        REQUIRED,
        /** Always written; a line without it reads as its absent value. */
        ALWAYS,
        /**
         * Written only when set (a long that is not negative, a flag that is true), after the always-written fields;
         * a line without it reads as its absent value. Only for a long or a flag.
         */
        WHEN_SET,
        /** Written for convenience, computed from the stored fields ({@code null} when undefined); never read. */
        DERIVED
    }

    /** A field's type: which pair of methods carries its value, and how it is written and read. */
    enum Kind {
        /** A whole number ({@code longOf}, {@code putLong}). */
        LONG,
        /** A whole number within an int ({@code intOf}, {@code putInt}). */
        INT,
        /** A boolean ({@code flagOf}, {@code putFlag}). */
        FLAG,
        /** A string ({@code textOf}, {@code putText}); with a {@code null} absent value it may be {@code null}. */
        TEXT,
        /** An array of whole numbers ({@code longsOf}, {@code putLongs}); absent: empty. */
        LONGS,
        /** An array of whole numbers within an int ({@code intsOf}, {@code putInts}); absent: empty. */
        INTS,
        /** Names to milliseconds, in name order, NaN as {@code null} ({@code timingsOf}, {@code putTimings}). */
        TIMINGS,
        /** Derived: a duration in nanoseconds ({@code longOf}) written as milliseconds, {@code null} when negative. */
        MILLIS,
        /** Derived: a number ({@code decimalOf}), {@code null} when not finite. */
        DECIMAL
    }

    /** Every field, in the order written. */
    static final RequestField[] ALL = values();
    /** The fields read back (all but the derived ones), in order. */
    static final RequestField[] STORED = select(f -> f.presence != DERIVED);
    /** The fields every line has, in order: the prefix that opens every line as written. */
    static final RequestField[] PREFIX = select(f -> f.presence == REQUIRED || f.presence == ALWAYS);
    /** The fields without which a line is rejected, in order. */
    static final RequestField[] REQUIRED_FIELDS = select(f -> f.presence == REQUIRED);
    /** The text fields among the stored ones, in order (a text written only when set comes after the prefix). */
    static final RequestField[] TEXTS = select(f -> f.presence != DERIVED && f.kind == TEXT);
    /** The text fields of the prefix, in order (what the canonical fast path reads; a later text makes it give up). */
    static final RequestField[] PREFIX_TEXTS = select(f -> (f.presence == REQUIRED || f.presence == ALWAYS)
            && f.kind == TEXT);
    /** The whole numbers written only when set: after the prefix, among the derived fields. */
    static final RequestField[] TAIL_LONGS = select(f -> f.presence == WHEN_SET && f.kind == LONG);
    private static final Map<String, RequestField> BY_NAME = new HashMap<>();
    private static final TokenSource[] SOURCES = TokenSource.values();
    /** {@link TokenSource#label()} of each, which otherwise makes a new string each time. */
    private static final String[] SOURCE_LABELS = new String[SOURCES.length];
    /** A record as the builder starts it: its fields are what a line without them reads as. */
    private static final RequestRecord ABSENT = new RequestRecord.Builder().build();

    static {
        for (TokenSource s : SOURCES) {
            SOURCE_LABELS[s.ordinal()] = s.label();
        }
        for (RequestField f : ALL) {
            BY_NAME.put(f.json, f);
            boolean prefix = f.ordinal() < PREFIX.length;
            if (prefix != (f.presence == REQUIRED || f.presence == ALWAYS)
                    || (f.presence == REQUIRED && f.kind != LONG && f.kind != TEXT)
                    || (f.presence == WHEN_SET && f.kind != LONG && f.kind != FLAG && f.kind != TEXT)
                    || ((f.presence == DERIVED) != (f.kind == MILLIS || f.kind == DECIMAL))) {
                throw new IllegalStateException("requests.jsonl field " + f.json + ": " + f.presence + " " + f.kind
                        + " does not fit at position " + f.ordinal());
            }
        }
    }

    private final String json = name().toLowerCase(Locale.ROOT);
    private final Presence presence;
    private final Kind kind;

    RequestField(Presence presence, Kind kind) {
        this.presence = presence;
        this.kind = kind;
    }

    /** The field's JSON name. */
    String json() {
        return json;
    }

    /**
     * Written only when set ({@link Presence#WHEN_SET}): a long only when not negative, a flag only when true, a text
     * only when not null.
     */
    boolean whenSet() {
        return presence == WHEN_SET;
    }

    Kind kind() {
        return kind;
    }

    boolean required() {
        return presence == REQUIRED;
    }

    /** What a line without this {@link Kind#LONG}, {@link Kind#INT} or {@link Kind#FLAG} field reads as. */
    long absentLong() { return longOf(ABSENT); }
    int absentInt() { return intOf(ABSENT); }
    boolean absentFlag() { return flagOf(ABSENT); }

    /** What a line without this {@link Kind#TEXT} field reads as; {@code null}: the value may be {@code null}. */
    String absentText() {
        return textOf(ABSENT);
    }

    /** A text field whose value may be {@code null} (outside the required ones). */
    boolean nullable() {
        return kind == TEXT && presence != REQUIRED && absentText() == null;
    }

    /** {@link TokenSource#parse}: a label as written is looked up without parse's case conversion. */
    private static TokenSource tokenSource(String label) {
        for (int i = 0; i < SOURCES.length; i++) {
            if (SOURCE_LABELS[i].equals(label)) {
                return SOURCES[i];
            }
        }
        return TokenSource.parse(label);
    }

    /** The field named {@code json}, or null when the format has no such field. */
    static RequestField named(String json) {
        return BY_NAME.get(json);
    }

    /** The error for a line without this required field (or with {@code null} for it). */
    IllegalArgumentException missing() {
        return new IllegalArgumentException("missing required field '" + json + "'");
    }

    // The value in a record and into a draft, by kind: each constant overrides its kind's pair.

    long longOf(RequestRecord r) { throw notA(LONG); }
    int intOf(RequestRecord r) { throw notA(INT); }
    boolean flagOf(RequestRecord r) { throw notA(FLAG); }
    String textOf(RequestRecord r) { throw notA(TEXT); }
    long[] longsOf(RequestRecord r) { throw notA(LONGS); }
    int[] intsOf(RequestRecord r) { throw notA(INTS); }
    Map<String, Double> timingsOf(RequestRecord r) { throw notA(TIMINGS); }
    double decimalOf(RequestRecord r) { throw notA(DECIMAL); }
    void putLong(RequestDraft d, long v) { throw notA(LONG); }
    void putInt(RequestDraft d, int v) { throw notA(INT); }
    void putFlag(RequestDraft d, boolean v) { throw notA(FLAG); }
    void putText(RequestDraft d, String v) { throw notA(TEXT); }
    void putLongs(RequestDraft d, long[] v) { throw notA(LONGS); }
    void putInts(RequestDraft d, int[] v) { throw notA(INTS); }
    void putTimings(RequestDraft d, Map<String, Double> v) { throw notA(TIMINGS); }

    private IllegalStateException notA(Kind k) {
        return new IllegalStateException(json + " is a " + kind + " field, not a " + k + " one");
    }

    private static RequestField[] select(Predicate<RequestField> p) {
        RequestField[] all = values();
        int n = 0;
        for (RequestField f : all) {
            if (p.test(f)) {
                all[n++] = f;
            }
        }
        return Arrays.copyOf(all, n);
    }
}
