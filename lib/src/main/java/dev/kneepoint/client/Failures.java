package dev.kneepoint.client;

import dev.kneepoint.metrics.Outcome;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.security.cert.CertPathValidatorException;
import java.util.Locale;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import okhttp3.HttpUrl;

/** Maps transport exceptions to outcomes with messages a person can act on. */
final class Failures {
    private Failures() {
    }

    /**
     * Classifies a failure that was not a cancellation nor one of our own deadlines.
     *
     * @param headersReceived true when the response headers had arrived (a mid-stream failure)
     * @param connected       true when a connection had been obtained
     * @param tokenEvents     token-carrying events received before the failure
     */
    static Outcome classify(IOException e, HttpUrl url, boolean headersReceived, boolean connected, int tokenEvents) {
        String where = url.host() + ":" + url.port();
        if (headersReceived) {
            return new Outcome.ConnectionError(String.format(Locale.ROOT,
                    "connection to %s lost mid-stream after %d token events: %s", where, tokenEvents, describe(e)));
        }
        if (e instanceof SocketTimeoutException && !connected) {
            return new Outcome.Timeout(Outcome.TimeoutKind.CONNECT);
        }
        if (e instanceof UnknownHostException) {
            String m = e.getMessage();
            return new Outcome.ConnectionError("unknown host '" + url.host() + "' (DNS lookup failed"
                    + (m == null || m.equals(url.host()) ? "" : ": " + m) + ")");
        }
        if (e instanceof ConnectException || e instanceof NoRouteToHostException) {
            return new Outcome.ConnectionError("cannot connect to " + where + " (connection refused or unreachable): "
                    + describe(e));
        }
        if (e instanceof SSLException || hasCause(e, SSLException.class)) {
            if (e instanceof SSLPeerUnverifiedException || hasCause(e, CertPathValidatorException.class)
                    || hasCause(e, CertificateException.class)) {
                return new Outcome.ConnectionError("TLS failure with " + where
                        + ": server certificate verification failed (verification stays on; to trust a self-signed or"
                        + " private-CA certificate give its PEM file with TargetConfig.Builder.trustCertificate(path)"
                        + " (CLI: --ca-cert FILE), or add its CA to the JDK trust store): " + describe(e));
            }
            return new Outcome.ConnectionError("TLS handshake with " + where + " failed: " + describe(e));
        }
        return new Outcome.ConnectionError("request to " + where + " failed before response headers"
                + (connected ? " (connection reset or closed by the server)" : "") + ": " + describe(e));
    }

    static String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m);
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable c = e.getCause(); c != null && c != e; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
