package dev.kneepoint.client;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import okhttp3.Dns;

/**
 * A DNS lookup bounded by the connect timeout. The JDK's resolver cannot be interrupted and OkHttp's
 * connect timeout starts only after the lookup, so a slow or dead resolver would hold a request (and a
 * run's stop) for as long as the system resolver retries. Here the lookup runs on its own virtual thread
 * and the request gives up after the limit with an {@link UnknownHostException} naming the wait (the
 * abandoned lookup ends on its own).
 */
final class BoundedDns implements Dns {
    /** The lookup itself (the system resolver; replaceable in tests). */
    interface Lookup {
        List<InetAddress> lookup(String host) throws UnknownHostException;
    }

    static final Lookup SYSTEM = host -> Arrays.asList(InetAddress.getAllByName(host));

    private final Lookup delegate;
    private final Duration limit;

    BoundedDns(Lookup delegate, Duration limit) {
        this.delegate = delegate;
        this.limit = limit;
    }

    @Override
    public List<InetAddress> lookup(String host) throws UnknownHostException {
        FutureTask<List<InetAddress>> task = new FutureTask<>(() -> delegate.lookup(host));
        Thread.ofVirtual().name("kneepoint-dns").start(task);
        try {
            return task.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownHostException u) {
                throw u;
            }
            UnknownHostException u = new UnknownHostException(host + ": " + e.getCause());
            u.initCause(e.getCause());
            throw u;
        } catch (TimeoutException e) {
            task.cancel(true);
            throw new UnknownHostException(String.format(Locale.ROOT,
                    "%s: no DNS answer within the connect timeout of %d ms", host, limit.toMillis()));
        } catch (InterruptedException e) {
            task.cancel(true);
            Thread.currentThread().interrupt();
            UnknownHostException u = new UnknownHostException(host + ": DNS lookup interrupted");
            u.initCause(e);
            throw u;
        }
    }
}
