package dev.kneepoint.client;

/** Which OpenAI-compatible endpoint a target speaks. */
public enum ApiKind {
    /** {@code POST /v1/chat/completions} with {@code messages}. */
    CHAT("/v1/chat/completions"),
    /** {@code POST /v1/completions} with {@code prompt}. */
    COMPLETIONS("/v1/completions");

    private final String path;

    ApiKind(String path) {
        this.path = path;
    }

    /** The endpoint path, e.g. {@code /v1/chat/completions}. */
    public String path() {
        return path;
    }
}
