package dev.kneepoint.client;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import okhttp3.HttpUrl;

/**
 * The bytes of one HTTP/1.1 POST for the {@link Transport#NIO} transport: the same headers the
 * OkHttp path sends (content type, {@code Accept}, bearer key, extra headers, which replace defaults
 * of the same name), keep-alive, no compression asked for.
 */
final class Http1Request {
    private Http1Request() {
    }

    static byte[] post(TargetConfig target, byte[] body) {
        HttpUrl url = target.endpoint();
        Map<String, String[]> headers = new LinkedHashMap<>();
        put(headers, "Host", hostHeader(url));
        put(headers, "Content-Type", "application/json; charset=utf-8");
        put(headers, "Content-Length", Integer.toString(body.length));
        put(headers, "Accept", !target.stream() ? "application/json"
                : target.apiKind().framing() == ApiKind.Framing.NDJSON ? "application/x-ndjson" : "text/event-stream");
        put(headers, "Connection", "keep-alive");
        put(headers, "User-Agent", "kneepoint");
        if (target.hasApiKey()) {
            put(headers, "Authorization", "Bearer " + target.apiKey());
        }
        target.extraHeaders().forEach((k, v) -> put(headers, k, v));
        StringBuilder head = new StringBuilder(256);
        head.append("POST ").append(url.encodedPath());
        if (url.encodedQuery() != null) {
            head.append('?').append(url.encodedQuery());
        }
        head.append(" HTTP/1.1\r\n");
        headers.values().forEach(h -> head.append(h[0]).append(": ").append(h[1]).append("\r\n"));
        head.append("\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length() + body.length);
        out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static void put(Map<String, String[]> headers, String name, String value) {
        headers.put(name.toLowerCase(Locale.ROOT), new String[] {name, value});
    }

    private static String hostHeader(HttpUrl url) {
        String host = url.host().contains(":") ? "[" + url.host() + "]" : url.host();
        return url.port() == HttpUrl.defaultPort(url.scheme()) ? host : host + ":" + url.port();
    }
}
