package dev.kneepoint.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.OkHttpClient;

/**
 * The TLS side of a {@link TargetConfig}: by default the JDK's trust store and hostname verification
 * (nothing changes); {@code trustCertificate(path)} trusts exactly the certificates of a PEM or DER file
 * (like {@code curl --cacert}); {@code insecureSkipTlsVerify(true)} turns verification off.
 */
final class TlsSettings {
    private TlsSettings() {
    }

    /** Reads every X.509 certificate of a PEM (one or more blocks) or DER file. */
    static List<X509Certificate> readCertificates(Path file) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(file)) {
            List<X509Certificate> certs = new ArrayList<>();
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certs.add((X509Certificate) c);
            }
            if (certs.isEmpty()) {
                throw new GeneralSecurityException("no certificate found");
            }
            return List.copyOf(certs);
        }
    }

    /** Applies the target's TLS options to a client builder (no-op for the defaults). */
    static void apply(OkHttpClient.Builder b, TargetConfig t) {
        try {
            if (t.insecureSkipTlsVerify()) {
                X509TrustManager trustAll = new TrustAll();
                b.sslSocketFactory(context(trustAll).getSocketFactory(), trustAll).hostnameVerifier((host, s) -> true);
            } else if (!t.trustedCertificates().isEmpty()) {
                KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
                ks.load(null, null);
                int i = 0;
                for (X509Certificate c : t.trustedCertificates()) {
                    ks.setCertificateEntry("trusted-" + i++, c);
                }
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(ks);
                X509TrustManager tm = (X509TrustManager) tmf.getTrustManagers()[0];
                b.sslSocketFactory(context(tm).getSocketFactory(), tm);
            }
        } catch (GeneralSecurityException | IOException e) {
            // the certificates were parsed when the target was built; the JDK's TLS provider failing is a bug
            throw new IllegalStateException("cannot set up TLS for " + t.endpoint() + ": " + e, e);
        }
    }

    private static SSLContext context(X509TrustManager tm) throws GeneralSecurityException {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {tm}, null);
        return ctx;
    }

    /** Accepts every certificate: only with {@code insecureSkipTlsVerify(true)}. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
