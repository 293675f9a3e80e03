package dev.kneepoint.telemetry;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.function.BiFunction;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Scrapes a Prometheus endpoint once per tick with an asynchronous call, so the sampler thread never waits
 * on the network. A tick while the previous scrape is still out is skipped (and counted as error kind
 * {@code slow}); HTTP 404 marks the source {@code unavailable} and stops scraping; other failures are
 * recorded once per kind and scraping goes on. A sample's time is the midpoint between sending the request
 * and reading the whole answer, on the run clock.
 */
final class HttpScraper {
    private final String source;
    private final HttpUrl url;
    private final OkHttpClient http;
    private final TelemetrySink sink;
    private final BiFunction<PromText.Exposition, Long, List<TelemetrySample>> mapper;
    private Call inFlight;
    private boolean stopped;
    private boolean announced;

    HttpScraper(String source, HttpUrl url, OkHttpClient http, TelemetrySink sink,
                BiFunction<PromText.Exposition, Long, List<TelemetrySample>> mapper) {
        this.source = source;
        this.url = url;
        this.http = http;
        this.sink = sink;
        this.mapper = mapper;
    }

    HttpUrl url() {
        return url;
    }

    synchronized void tick() {
        if (stopped) {
            return;
        }
        if (inFlight != null) {
            sink.error(source, "slow", "a scrape of " + url + " took longer than the interval; ticks are skipped while"
                    + " one is out");
            return;
        }
        long sent = sink.clock().now();
        Call call = http.newCall(new Request.Builder().url(url).header("Accept", "text/plain").get().build());
        inFlight = call;
        call.enqueue(new Callback() {
            @Override
            public void onFailure(Call c, IOException e) {
                done(c);
                if (!c.isCanceled()) {
                    String kind = e instanceof InterruptedIOException ? "timeout" : "connection";
                    sink.error(source, kind, url + ": " + e.getClass().getSimpleName() + " " + e.getMessage());
                }
            }

            @Override
            public void onResponse(Call c, Response response) {
                try (response; ResponseBody body = response.body()) {
                    if (response.code() == 404) {
                        stop();
                        sink.status(source, "unavailable", "HTTP 404 from " + url + ": the server exposes no metrics"
                                + " there (set the metrics URL, or start the server with its metrics flag)");
                        return;
                    }
                    if (!response.isSuccessful()) {
                        sink.error(source, "http_" + response.code(), "HTTP " + response.code() + " from " + url);
                        return;
                    }
                    String text = body.string();
                    long t = sent + (sink.clock().now() - sent) / 2;
                    PromText.Exposition e = PromText.parse(text);
                    if (!e.problems().isEmpty()) {
                        sink.error(source, "parse", url + " " + e.problems().get(0) + " (" + e.problems().size()
                                + " bad lines in this scrape)");
                    }
                    if (!announced) {
                        announced = true;
                        sink.status(source, "started", "scraping " + url
                                + (source.equals("server") ? " (" + ServerMetrics.detect(e) + " names)" : ""));
                    }
                    sink.samples(source, mapper.apply(e, t));
                } catch (IOException e) {
                    sink.error(source, "read", url + ": " + e.getMessage());
                } catch (RuntimeException e) {
                    sink.error(source, "internal", url + ": " + e);
                } finally {
                    done(c);
                }
            }
        });
    }

    private synchronized void done(Call c) {
        if (inFlight == c) {
            inFlight = null;
        }
    }

    private synchronized void stop() {
        stopped = true;
    }

    /** Stops scraping and cancels the scrape in flight. */
    synchronized void close() {
        stopped = true;
        if (inFlight != null) {
            inFlight.cancel();
            inFlight = null;
        }
    }
}
