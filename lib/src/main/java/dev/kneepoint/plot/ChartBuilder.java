package dev.kneepoint.plot;

import org.knowm.xchart.XYChart;

/**
 * What every chart builder of this package shares: the chart's title and its size in pixels, set fluently, and
 * {@link #build()}. Extended only in this package.
 *
 * @param <P> the concrete builder, which the setters return
 */
public abstract class ChartBuilder<P extends ChartBuilder<P>> {
    private String title;
    private int width = ChartStyle.WIDTH;
    private int height = ChartStyle.HEIGHT;

    ChartBuilder() {}

    /** The chart's title (default: one naming what the chart shows). */
    public final P title(String title) {
        this.title = title;
        return self();
    }

    /** The chart's size in pixels (default 900 × 560). */
    public final P size(int width, int height) {
        this.width = width;
        this.height = height;
        return self();
    }

    /** The chart. */
    public abstract XYChart build();

    /** True when a title was set. */
    final boolean titled() {
        return title != null;
    }

    /** An empty chart of the size set, titled as set or else {@code defaultTitle}. */
    final XYChart chart(String defaultTitle, String xTitle, String yTitle) {
        return ChartStyle.chart(title != null ? title : defaultTitle, xTitle, yTitle, width, height);
    }

    @SuppressWarnings("unchecked")
    private P self() {
        return (P) this;
    }
}
