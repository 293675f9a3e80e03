package dev.kneepoint.workload;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Factories for {@link LengthDistribution}s of input and output token lengths.
 *
 * <pre>{@code
 * Lengths.fixed(128); Lengths.uniform(64, 256); Lengths.normal(512, 64);
 * Lengths.logNormal(512, 128); Lengths.empirical(100, 200, 350);
 * Lengths.parse("uniform:64..256");   // as typed after --input-tokens / --output-tokens
 * }</pre>
 */
public final class Lengths {
    private Lengths() {
    }

    /** Always {@code tokens}. */
    public static LengthDistribution fixed(int tokens) {
        return new LengthDistribution.Fixed(tokens);
    }

    /** Uniform in {@code [min, max]}, both included. */
    public static LengthDistribution uniform(int min, int max) {
        return new LengthDistribution.Uniform(min, max);
    }

    /** Normal, rounded and truncated at {@code >= 1}. */
    public static LengthDistribution normal(double mean, double sd) {
        return new LengthDistribution.Normal(mean, sd);
    }

    /** Log-normal with this mean and standard deviation of the lengths themselves. */
    public static LengthDistribution logNormal(double mean, double sd) {
        return new LengthDistribution.LogNormal(mean, sd);
    }

    /** Uniform draws from these observed lengths. */
    public static LengthDistribution empirical(int... values) {
        return new LengthDistribution.Empirical(Arrays.stream(values).boxed().toList(), "list");
    }

    /** Uniform draws from these observed lengths; {@code source} names where they came from. */
    public static LengthDistribution empirical(Collection<Integer> values, String source) {
        return new LengthDistribution.Empirical(List.copyOf(values), source);
    }

    /** The forms {@link #parse} reads, for error messages and help texts. */
    public static final String FORMS = "N (fixed), uniform:MIN..MAX, normal:MEAN,SD, lognormal:MEAN,SD or "
            + "empirical:A,B,C...";

    /**
     * A distribution as typed on a command line: {@code 128}, {@code uniform:32..96}, {@code normal:512,64},
     * {@code lognormal:512,128} or {@code empirical:100,200,350}.
     *
     * @throws IllegalArgumentException naming the text, what is wrong and the forms it accepts
     */
    public static LengthDistribution parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(java.util.Locale.ROOT);
        int colon = t.indexOf(':');
        String kind = colon < 0 ? "" : t.substring(0, colon).strip();
        String args = colon < 0 ? t : t.substring(colon + 1).strip();
        try {
            return switch (kind) {
                case "" -> fixed(Integer.parseInt(args));
                case "fixed" -> fixed(Integer.parseInt(args));
                case "uniform" -> {
                    String[] b = args.split("\\.\\.", -1);
                    require(b.length == 2, "uniform needs MIN..MAX");
                    yield uniform(Integer.parseInt(b[0].strip()), Integer.parseInt(b[1].strip()));
                }
                case "normal", "lognormal" -> {
                    String[] b = args.split(",", -1);
                    require(b.length == 2, kind + " needs MEAN,SD");
                    double mean = Double.parseDouble(b[0].strip());
                    double sd = Double.parseDouble(b[1].strip());
                    yield kind.equals("normal") ? normal(mean, sd) : logNormal(mean, sd);
                }
                case "empirical" -> empirical(Arrays.stream(args.split(",")).map(String::strip)
                        .map(Integer::valueOf).toList(), "list");
                default -> throw new IllegalArgumentException("unknown distribution '" + kind + "'");
            };
        } catch (IllegalArgumentException e) {
            String why = e instanceof NumberFormatException ? "not a number" : e.getMessage();
            throw new IllegalArgumentException("cannot read the length '" + text + "' (" + why + "): give " + FORMS
                    + ", e.g. 128 or uniform:32..96", e);
        }
    }

    static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** A standard normal draw (Box-Muller; SplittableRandom has no nextGaussian before Java 17's RandomGenerator default). */
    static double gaussian(SplittableRandom rnd) {
        double u1 = rnd.nextDouble();
        double u2 = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
    }
}
