package dev.kneepoint.client;

import dev.kneepoint.metrics.Problems;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import okhttp3.HttpUrl;

/**
 * Where and how to send requests: an OpenAI-compatible server, its model, the endpoint kind,
 * streaming, extra body fields and headers, the API key source and the four timeouts.
 *
 * <p>Build with {@link #builder()}; {@link Builder#build()} reports every problem at once. The API
 * key is read from an environment variable or a file at build time and is never shown:
 * {@link #toString()} and {@link #describe()} (a map fit for a run manifest) only say where it came from.
 *
 * <p>Timeouts (METRICS.md "Outcomes", {@code TIMEOUT(kind)}): {@code connect} bounds opening the
 * connection; {@code firstToken} runs from dispatch until the first token-carrying event;
 * {@code idle} is the longest silence allowed between reads once tokens flow; {@code total}
 * bounds the whole request. Their defaults are the {@code DEFAULT_*_TIMEOUT} constants (the command line's
 * {@code --timeout-*} options show and take the same).
 */
public final class TargetConfig {
    /** Default bound on opening a connection (DNS, TCP, TLS): generous for a remote host, short for a dead one. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /**
     * Default bound from dispatch to the first token: 10 minutes, because under queueing a long prompt's prefill can
     * wait behind a whole batch (a saturated server's TTFT runs to minutes); a server silent that long inside a step is
     * ended by the step's drain instead, as {@code UNFINISHED}, a failure.
     */
    public static final Duration DEFAULT_FIRST_TOKEN_TIMEOUT = Duration.ofSeconds(600);
    /**
     * Default longest silence once tokens flow: 20 s. Far above any healthy gap between tokens (tens of ms; a
     * preempted sequence's recompute or a long prefill stalling decode: a few seconds), and below the step's default
     * drain ({@code Step.DEFAULT_DRAIN_TIMEOUT}, 30 s), so a stream that stalls inside a step, even at its very end,
     * ends as {@code TIMEOUT(idle)} before the drain would cut it.
     */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(20);
    /** Default bound on the whole request: 30 minutes, above any finite answer's length at a sane token rate. */
    public static final Duration DEFAULT_TOTAL_TIMEOUT = Duration.ofSeconds(1800);

    private static final List<String> SENSITIVE = List.of("authorization", "key", "token", "cookie", "secret");

    private final HttpUrl baseUrl;
    private final HttpUrl endpoint;
    private final String model;
    private final ApiKind apiKind;
    private final boolean stream;
    private final boolean continuousUsageStats;
    private final Map<String, Object> extraBody;
    private final Map<String, String> extraHeaders;
    private final String apiKeySource;
    private final String apiKey;
    private final Duration connectTimeout;
    private final Duration firstTokenTimeout;
    private final Duration idleTimeout;
    private final Duration totalTimeout;
    private final int maxEventBytes;
    private final Path trustCertificate;
    private final List<java.security.cert.X509Certificate> trustedCertificates;
    private final boolean insecureSkipTlsVerify;
    private final Transport transport;

    private TargetConfig(Builder b, HttpUrl baseUrl, HttpUrl endpoint, String apiKey,
                         List<java.security.cert.X509Certificate> trusted) {
        this.baseUrl = baseUrl;
        this.endpoint = endpoint;
        this.model = b.model;
        this.apiKind = b.apiKind;
        this.stream = b.stream;
        this.continuousUsageStats = b.continuousUsageStats;
        this.extraBody = Collections.unmodifiableMap(new LinkedHashMap<>(b.extraBody));
        this.extraHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(b.extraHeaders));
        this.apiKeySource = b.apiKeyEnv != null ? "env:" + b.apiKeyEnv
                : b.apiKeyFile != null ? "file:" + b.apiKeyFile : "none";
        this.apiKey = apiKey;
        this.connectTimeout = b.connectTimeout;
        this.firstTokenTimeout = b.firstTokenTimeout;
        this.idleTimeout = b.idleTimeout;
        this.totalTimeout = b.totalTimeout;
        this.maxEventBytes = b.maxEventBytes;
        this.trustCertificate = b.trustCertificate;
        this.trustedCertificates = trusted;
        this.insecureSkipTlsVerify = b.insecureSkipTlsVerify;
        this.transport = b.transport;
    }

    private TargetConfig(TargetConfig t, ApiKind kind) {
        this.baseUrl = t.baseUrl;
        this.endpoint = Builder.endpointOf(t.baseUrl, kind);
        this.model = t.model;
        this.apiKind = kind;
        this.stream = t.stream;
        this.continuousUsageStats = t.continuousUsageStats;
        this.extraBody = t.extraBody;
        this.extraHeaders = t.extraHeaders;
        this.apiKeySource = t.apiKeySource;
        this.apiKey = t.apiKey;
        this.connectTimeout = t.connectTimeout;
        this.firstTokenTimeout = t.firstTokenTimeout;
        this.idleTimeout = t.idleTimeout;
        this.totalTimeout = t.totalTimeout;
        this.maxEventBytes = t.maxEventBytes;
        this.trustCertificate = t.trustCertificate;
        this.trustedCertificates = t.trustedCertificates;
        this.insecureSkipTlsVerify = t.insecureSkipTlsVerify;
        this.transport = t.transport;
    }

    /**
     * This target speaking another API (same server, model, key, headers and timeouts; the endpoint
     * path follows the kind).
     *
     * @throws IllegalArgumentException when {@code kind} cannot be used with this target's settings
     *                                  (TGI's {@code /generate_stream} with streaming off)
     */
    public TargetConfig withApiKind(ApiKind kind) {
        Objects.requireNonNull(kind, "kind");
        if (kind == ApiKind.TGI_GENERATE_STREAM && !stream) {
            throw new IllegalArgumentException("TGI's /generate_stream always streams: keep stream(true)");
        }
        return kind == apiKind ? this : new TargetConfig(this, kind);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The base URL as given (e.g. {@code http://localhost:8000} or {@code .../v1}). */
    public HttpUrl baseUrl() { return baseUrl; }

    /** The full endpoint URL requests are posted to. */
    public HttpUrl endpoint() { return endpoint; }

    public String model() { return model; }

    public ApiKind apiKind() { return apiKind; }

    /** True to request {@code stream: true} (the default); never for a pooling API ({@link ApiKind#isPooling()}). */
    public boolean stream() { return stream && !apiKind.isPooling(); }

    /** True to ask for vLLM's {@code stream_options.continuous_usage_stats}. */
    public boolean continuousUsageStats() { return continuousUsageStats; }

    /** Fields merged into every request body (unmodifiable, in insertion order). */
    public Map<String, Object> extraBody() { return extraBody; }

    /** Headers added to every request (unmodifiable). */
    public Map<String, String> extraHeaders() { return extraHeaders; }

    public Duration connectTimeout() { return connectTimeout; }

    public Duration firstTokenTimeout() { return firstTokenTimeout; }

    public Duration idleTimeout() { return idleTimeout; }

    public Duration totalTimeout() { return totalTimeout; }

    /** Largest SSE event accepted before the stream is declared malformed. */
    public int maxEventBytes() { return maxEventBytes; }

    /** The PEM/DER file whose certificates are trusted for TLS instead of the JDK's trust store, or null. */
    public Path trustCertificate() { return trustCertificate; }

    /** True when TLS certificate and hostname verification are off ({@link Builder#insecureSkipTlsVerify}). */
    public boolean insecureSkipTlsVerify() { return insecureSkipTlsVerify; }

    /** The certificates read from {@link #trustCertificate()} (empty when none). */
    List<java.security.cert.X509Certificate> trustedCertificates() { return trustedCertificates; }
    /** The transport as configured ({@link Transport#AUTO} unless set). */
    public Transport transport() { return transport; }

    /** True when requests go over the selector-based {@link Transport#NIO}: {@code NIO}, or {@code AUTO} over http. */
    public boolean usesNio() {
        return transport == Transport.NIO || (transport == Transport.AUTO && !baseUrl.isHttps());
    }

    /** True when an API key was configured (and read). */
    public boolean hasApiKey() { return apiKey != null; }

    /** The bearer token for the {@code Authorization} header; package-private so it cannot leak through the API. */
    String apiKey() { return apiKey; }

    /**
     * A description with no secrets, fit for a manifest: the key appears only as its source ({@code env:NAME},
     * {@code file:PATH} or {@code none}), sensitive header values as {@code <redacted>}, the URL without user info.
     */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("base_url", baseUrl.newBuilder().username("").password("").build().toString());
        m.put("endpoint", endpoint.newBuilder().username("").password("").build().toString());
        m.put("model", model);
        m.put("api", apiKind.name().toLowerCase(Locale.ROOT));
        m.put("stream", stream());
        m.put("continuous_usage_stats", continuousUsageStats);
        m.put("extra_body", extraBody);
        Map<String, String> headers = new LinkedHashMap<>();
        extraHeaders.forEach((k, v) -> headers.put(k, isSensitive(k) ? "<redacted>" : v));
        m.put("extra_headers", headers);
        m.put("api_key", apiKeySource);
        m.put("connect_timeout_ms", connectTimeout.toMillis());
        m.put("first_token_timeout_ms", firstTokenTimeout.toMillis());
        m.put("idle_timeout_ms", idleTimeout.toMillis());
        m.put("total_timeout_ms", totalTimeout.toMillis());
        m.put("max_event_bytes", maxEventBytes);
        m.put("tls", insecureSkipTlsVerify ? "insecure-skip-verify"
                : trustCertificate != null ? "trust:" + trustCertificate : "system");
        m.put("transport", transport.name().toLowerCase(Locale.ROOT));
        return Collections.unmodifiableMap(m);
    }

    @Override
    public String toString() {
        return "TargetConfig" + describe();
    }

    static boolean isSensitive(String headerName) {
        String n = headerName.toLowerCase(Locale.ROOT);
        return SENSITIVE.stream().anyMatch(n::contains);
    }

    /** Validated builder; {@link #build()} lists all problems in one exception. */
    public static final class Builder {
        private String baseUrl;
        private String model;
        private ApiKind apiKind = ApiKind.CHAT;
        private String apiName;
        private boolean stream = true;
        private boolean continuousUsageStats;
        private final Map<String, Object> extraBody = new LinkedHashMap<>();
        private final Map<String, String> extraHeaders = new LinkedHashMap<>();
        private String apiKeyEnv;
        private Path apiKeyFile;
        private UnaryOperator<String> environment = System::getenv;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration firstTokenTimeout = DEFAULT_FIRST_TOKEN_TIMEOUT;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private Duration totalTimeout = DEFAULT_TOTAL_TIMEOUT;
        private int maxEventBytes = SseParser.DEFAULT_MAX_EVENT_BYTES;
        private Path trustCertificate;
        private boolean insecureSkipTlsVerify;
        private Transport transport = Transport.AUTO;

        private Builder() {
        }

        /** Server root such as {@code http://localhost:8000}; a trailing {@code /v1} is accepted. */
        public Builder baseUrl(String url) { this.baseUrl = url; return this; }

        public Builder model(String model) { this.model = model; return this; }

        /** The API the server speaks (default {@link ApiKind#CHAT}). */
        public Builder apiKind(ApiKind kind) { this.apiKind = kind; this.apiName = null; return this; }

        /** Same as {@link #apiKind(ApiKind)}. */
        public Builder api(ApiKind kind) { return apiKind(kind); }

        /**
         * The API by name ({@code chat}, {@code completions}, {@code tgi}, {@code ollama-generate},
         * {@code ollama-chat}, {@code llamacpp}, {@code sglang}: see {@link ApiKind#parse}); an unknown
         * name is reported by {@link #build()} with the valid ones.
         */
        public Builder api(String name) { this.apiName = name; return this; }

        public Builder stream(boolean on) { this.stream = on; return this; }

        public Builder continuousUsageStats(boolean on) { this.continuousUsageStats = on; return this; }

        /** Adds one field merged into every body (e.g. {@code ignore_eos}, {@code min_tokens}). */
        public Builder extraBody(String field, Object value) { extraBody.put(field, value); return this; }

        public Builder extraBody(Map<String, ?> fields) { extraBody.putAll(fields); return this; }

        public Builder header(String name, String value) { extraHeaders.put(name, value); return this; }

        /** Reads the API key from this environment variable (sent as {@code Authorization: Bearer}). */
        public Builder apiKeyFromEnv(String variable) { this.apiKeyEnv = variable; return this; }

        /** Reads the API key from this file (first line, trimmed). */
        public Builder apiKeyFromFile(Path file) { this.apiKeyFile = file; return this; }

        /** Replaces the environment lookup (tests). */
        Builder environment(UnaryOperator<String> lookup) { this.environment = lookup; return this; }

        public Builder connectTimeout(Duration d) { this.connectTimeout = d; return this; }

        public Builder firstTokenTimeout(Duration d) { this.firstTokenTimeout = d; return this; }

        public Builder idleTimeout(Duration d) { this.idleTimeout = d; return this; }

        public Builder totalTimeout(Duration d) { this.totalTimeout = d; return this; }

        public Builder maxEventBytes(int bytes) { this.maxEventBytes = bytes; return this; }

        /** How requests travel: {@link Transport#AUTO} (the default), {@code OKHTTP} or {@code NIO}. */
        public Builder transport(Transport t) { this.transport = t; return this; }

        /**
         * Trusts exactly the certificates in this PEM (or DER) file for TLS, instead of the JDK's trust
         * store (like {@code curl --cacert}): for a server with a self-signed or private-CA certificate.
         * Hostnames are still verified.
         */
        public Builder trustCertificate(Path pemFile) { this.trustCertificate = pemFile; return this; }

        /**
         * Turns TLS certificate and hostname verification off (default false). For test servers only:
         * prefer {@link #trustCertificate(Path)}.
         */
        public Builder insecureSkipTlsVerify(boolean skip) { this.insecureSkipTlsVerify = skip; return this; }

        /**
         * Validates and builds.
         *
         * @throws IllegalArgumentException listing every problem found (never the key's value)
         */
        public TargetConfig build() {
            Problems problems = new Problems();
            HttpUrl base = null;
            if (baseUrl == null || baseUrl.isBlank()) {
                problems.add("baseUrl is required (e.g. http://localhost:8000)");
            } else {
                base = HttpUrl.parse(baseUrl.strip());
                problems.check(base != null, "baseUrl '" + baseUrl + "' is not a valid http:// or https:// URL");
            }
            problems.check(model != null && !model.isBlank(), "model is required (the model name the server serves)");
            if (apiName != null) {
                try {
                    apiKind = ApiKind.parse(apiName);
                    apiName = null;
                } catch (IllegalArgumentException e) {
                    problems.add(e.getMessage());
                }
            }
            problems.check(apiKind != null || apiName != null,
                            "apiKind is required; valid values: " + String.join(", ", ApiKind.labels()))
                    .check(apiKind != ApiKind.TGI_GENERATE_STREAM || stream, "TGI's /generate_stream always streams:"
                            + " keep stream(true), or use the OpenAI API (api chat or completions) for non-streaming"
                            + " requests");
            TargetChecks.checkPositive(problems, "connectTimeout", connectTimeout);
            TargetChecks.checkPositive(problems, "firstTokenTimeout", firstTokenTimeout);
            TargetChecks.checkPositive(problems, "idleTimeout", idleTimeout);
            TargetChecks.checkPositive(problems, "totalTimeout", totalTimeout);
            problems.check(maxEventBytes > 0, "maxEventBytes must be positive, got " + maxEventBytes);
            if (transport == null) {
                problems.add("transport is required (AUTO, OKHTTP or NIO)");
            } else if (transport == Transport.NIO && base != null && base.isHttps()) {
                problems.add("transport NIO serves only plain http:// URLs, not '" + baseUrl.strip()
                        + "'; use transport AUTO or OKHTTP for https://");
            }
            extraHeaders.forEach((k, v) -> problems.check(k != null && !k.isBlank() && v != null,
                    "extra header '" + k + "' needs a non-blank name and a value"));
            extraBody.keySet().forEach(k -> problems.check(k != null && !k.isBlank(),
                    "extra body fields need non-blank names"));
            List<java.security.cert.X509Certificate> trusted =
                    TargetChecks.readTrusted(trustCertificate, insecureSkipTlsVerify, problems);
            String key = TargetChecks.readKey(apiKeyEnv, apiKeyFile, environment, problems);
            problems.throwListIfAny("target configuration", " - ");
            return new TargetConfig(this, base, endpointOf(base, apiKind), key, trusted);
        }

        private static HttpUrl endpointOf(HttpUrl base, ApiKind kind) {
            String root = serverRoot(base).encodedPath(); // ends in '/'; kind paths start with one
            return base.newBuilder().encodedPath(root.substring(0, root.length() - 1) + kind.path()).build();
        }
    }

    /**
     * The server's root for its own endpoints ({@code /tokenize}, {@code /api/generate}, the API paths): {@code base}
     * without trailing slashes and without a final {@code /v1}, ending in '/'.
     */
    public static HttpUrl serverRoot(HttpUrl base) {
        String path = base.encodedPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (path.endsWith("/v1")) {
            path = path.substring(0, path.length() - 3);
        }
        return base.newBuilder().encodedPath(path.isEmpty() ? "/" : path + "/").build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TargetConfig t && describe().equals(t.describe()) && Objects.equals(apiKey, t.apiKey);
    }

    @Override
    public int hashCode() {
        return describe().hashCode();
    }
}
