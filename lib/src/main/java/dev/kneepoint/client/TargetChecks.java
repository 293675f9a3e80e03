package dev.kneepoint.client;

import dev.kneepoint.metrics.Problems;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The parts of {@link TargetConfig.Builder#build()} that read or check one input: the API key (from an
 * environment variable or a file), the trusted certificates and the timeouts. Each adds what is wrong to
 * {@code problems} instead of throwing, so that the builder reports every problem at once.
 */
final class TargetChecks {
    private TargetChecks() {
    }

    /** The certificates of {@code trustCertificate} (empty when none, or when a problem was added). */
    static List<X509Certificate> readTrusted(Path trustCertificate, boolean insecureSkipTlsVerify,
                                             Problems problems) {
        if (trustCertificate == null) {
            return List.of();
        }
        if (insecureSkipTlsVerify) {
            problems.add("give either trustCertificate or insecureSkipTlsVerify, not both");
            return List.of();
        }
        try {
            return TlsSettings.readCertificates(trustCertificate);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            problems.add("certificate file '" + trustCertificate + "' cannot be read as PEM or DER X.509 ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                    + "); export the server's CA certificate, e.g. with openssl s_client -showcerts");
            return List.of();
        }
    }

    /** The API key, stripped (null when none is configured, or when a problem was added; never in a problem). */
    static String readKey(String apiKeyEnv, Path apiKeyFile, UnaryOperator<String> environment,
                          Problems problems) {
        if (apiKeyEnv != null && apiKeyFile != null) {
            problems.add("give the API key either from an environment variable or from a file, not both");
            return null;
        }
        if (apiKeyEnv != null) {
            String v = apiKeyEnv.isBlank() ? null : environment.apply(apiKeyEnv);
            if (v == null || v.isBlank()) {
                problems.add("API key environment variable '" + apiKeyEnv + "' is not set or empty");
                return null;
            }
            return v.strip();
        }
        if (apiKeyFile != null) {
            try {
                String v = Files.readString(apiKeyFile, StandardCharsets.UTF_8).strip();
                int nl = v.indexOf('\n');
                v = nl < 0 ? v : v.substring(0, nl).strip();
                if (v.isEmpty()) {
                    problems.add("API key file '" + apiKeyFile + "' is empty");
                    return null;
                }
                return v;
            } catch (IOException | RuntimeException e) {
                problems.add("API key file '" + apiKeyFile + "' cannot be read ("
                        + e.getClass().getSimpleName() + ")");
                return null;
            }
        }
        return null;
    }

    static void checkPositive(Problems problems, String name, Duration d) {
        problems.check(d != null && !d.isNegative() && !d.isZero(), name + " must be a positive duration, got " + d);
    }
}
