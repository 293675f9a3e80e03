package dev.kneepoint.workload;

import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.Problems;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.SessionWorkload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Chat sessions that carry their history: each turn sends the session's system prompt (optional), every earlier
 * user turn and assistant answer, then the new user turn, so turn {@code t}'s prompt extends turn {@code t-1}'s
 * (a prefix cache sees real chat reuse).
 *
 * <p>In a load step (closed or open loop) this is a {@link SessionWorkload}: the assistant answers in the history
 * are the server's real answers, and a session's turn is sent only after its previous turn ended (the rules, and
 * why the open-loop schedule keeps no coordinated omission, are in {@link SessionWorkload}). A failed turn ends
 * its session. Through {@link #next(long)} alone (background streams, {@link #verify}) request {@code i} is turn
 * {@code i mod turns} of session {@code i / turns} with synthetic answers of exactly the length the earlier turn
 * asked for, independent of any response. Build with {@link Workloads#multiTurn()}.
 */
public final class MultiTurnWorkload implements DescribedWorkload, SessionWorkload {

    private final int turns;
    private final LengthDistribution user;
    private final LengthDistribution output;
    private final int systemTokens;
    private final OutputControl control;
    private final long seed;
    private final long salt;
    private final String tag;
    private final PromptCalibrator cal;
    private final java.time.Duration thinkTime;

    private MultiTurnWorkload(Builder b, PromptCalibrator cal, long salt) {
        this.thinkTime = b.thinkTime;
        this.turns = b.turns;
        this.user = b.user;
        this.output = b.output;
        this.systemTokens = b.systemTokens;
        this.control = b.control;
        this.seed = b.seed;
        this.tag = b.tag;
        this.cal = cal;
        this.salt = salt;
        for (int t = 0; t < turns; t++) {
            cal.chatOverhead(roles(t));
        }
    }

    private List<String> roles(int turn) {
        List<String> r = new ArrayList<>();
        if (systemTokens > 0) {
            r.add("system");
        }
        for (int k = 0; k < turn; k++) {
            r.add("user");
            r.add("assistant");
        }
        r.add("user");
        return r;
    }

    @Override
    public RequestSpec next(long index) {
        return build(index / turns, (int) (index % turns), null);
    }

    /**
     * Turn {@code turn} of session {@code session} with the server's real answers in the history. The prompt
     * length it reports ({@code requestedPromptTokens}) counts each answer by its output-token count, so it may
     * differ from the server's count of the re-tokenized history by a token or so per answer.
     */
    @Override
    public RequestSpec turn(long session, int turn, List<Answer> answers) {
        if (turn < 0 || turn >= turns || answers == null || answers.size() != turn) {
            throw new IllegalArgumentException("turn " + turn + " of " + turns + " needs exactly " + turn
                    + " earlier answers, got " + (answers == null ? "null" : answers.size()));
        }
        return build(session, turn, answers);
    }

    /** The request of one turn; {@code answers} null: synthetic answers of the requested lengths. */
    private RequestSpec build(long session, int turn, List<Answer> answers) {
        long index = session * turns + turn;
        long textSeed = LengthDistribution.mix(LengthDistribution.mix(seed, salt), session);
        List<RequestSpec.ChatMessage> msgs = new ArrayList<>();
        int tokens = cal.chatOverhead(roles(turn));
        if (systemTokens > 0) {
            PromptCalibrator.Text s = cal.text(new SplittableRandom(LengthDistribution.mix(seed ^ salt, -1)), systemTokens);
            msgs.add(new RequestSpec.ChatMessage("system", s.text()));
            tokens += s.tokens();
        }
        for (int k = 0; k <= turn; k++) {
            long id = session * turns + k;
            PromptCalibrator.Text u = cal.text(new SplittableRandom(LengthDistribution.mix(textSeed, 2L * k)),
                    user.sample(seed, id));
            msgs.add(new RequestSpec.ChatMessage("user", u.text()));
            tokens += u.tokens();
            if (k < turn && answers != null) {
                msgs.add(new RequestSpec.ChatMessage("assistant", answers.get(k).text()));
                tokens += Math.max(0, answers.get(k).tokens());
            } else if (k < turn) {
                PromptCalibrator.Text a = cal.text(new SplittableRandom(LengthDistribution.mix(textSeed, 2L * k + 1)),
                        output.sample(seed ^ LengthDistribution.OUTPUT_STREAM, id));
                msgs.add(new RequestSpec.ChatMessage("assistant", a.text()));
                tokens += a.tokens();
            }
        }
        OutputControl.Fields f = control.fields(output.sample(seed ^ LengthDistribution.OUTPUT_STREAM, index));
        String last = msgs.get(msgs.size() - 1).content();
        return new RequestSpec(last, msgs, f.maxTokens(), tokens, f.extraBody(), tag);
    }

    /** Counts the chat prompts of the first {@code n} requests: achieved vs requested. */
    public CalibrationReport verify(int n) {
        return cal.verify(this, n, true);
    }

    public int turns() {
        return turns;
    }

    /** The time a user takes between an answer and the session's next turn (see {@link SessionWorkload#thinkTime()}). */
    @Override
    public java.time.Duration thinkTime() {
        return thinkTime;
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "multi_turn");
        m.put("turns", turns);
        m.put("think_time_s", thinkTime.toNanos() / 1e9);
        m.put("system_tokens", systemTokens);
        m.put("user_tokens", user.describe());
        m.put("output_tokens", output.describe());
        m.put("output_control", control.describe());
        PromptSettings.describeText(m, cal, seed, salt, tag);
        return m;
    }

    /** Validated builder; {@link #build()} reports every problem at once. */
    public static final class Builder extends PromptSettings<Builder> {
        private int turns = 4;
        private LengthDistribution user = Lengths.fixed(64);
        private LengthDistribution output = Lengths.fixed(128);
        private int systemTokens;
        private java.time.Duration thinkTime = java.time.Duration.ZERO;

        Builder() {
            super("multi-turn");
        }

        /** Turns per session (default 4). */
        public Builder turns(int n) { this.turns = n; return this; }

        /** Length of each new user message in tokens (default fixed 64). */
        public Builder userTokens(LengthDistribution d) { this.user = d; return this; }

        /** Output length of each turn; earlier answers in the history have these lengths too. */
        public Builder outputTokens(LengthDistribution d) { this.output = d; return this; }

        /** A system prompt of this many tokens, shared by every session (0: none). */
        public Builder systemTokens(int tokens) { this.systemTokens = tokens; return this; }

        /** Calibrate with the target's own tokenizer ({@link TokenCounter#server(TargetConfig)}). */
        public Builder calibrate(TargetConfig target) { return calibrate(TokenCounter.server(target)); }

        /** Time between an answer and the session's next turn (default zero); see {@link SessionWorkload#thinkTime()}. */
        public Builder thinkTime(java.time.Duration d) { this.thinkTime = d; return this; }

        public MultiTurnWorkload build() {
            Problems p = new Problems();
            if (turns < 1) p.add("turns must be >= 1, got " + turns);
            if (user == null) p.add("userTokens is required");
            if (output == null) p.add("outputTokens is required");
            if (systemTokens < 0) p.add("systemTokens must be >= 0, got " + systemTokens);
            checkShared(p);
            if (thinkTime == null || thinkTime.isNegative()) p.add("thinkTime must be >= 0, got " + thinkTime);
            p.throwListIfAny("multi-turn workload", " - ");
            return new MultiTurnWorkload(this, resolveCalibrator(), resolveSalt());
        }
    }
}
