package io.rwsplit.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.imageio.ImageIO;

/**
 * A bar chart of the ratios (variant time / plain time) with error bars, one group per operation and one bar
 * per variant of the run (the routing peers included), drawn with Java2D (headless) into a PNG.
 */
final class Chart {

    private static final Color[] COLORS = {
        new Color(0x9e9e9e), new Color(0x616161), new Color(0x2e7d32), new Color(0x81c784), new Color(0x1565c0),
        new Color(0xc62828), new Color(0x6a1b9a), new Color(0xef6c00)
    };
    private static final int WIDTH = 900;
    private static final int HEIGHT = 500;
    private static final int LEFT = 60;
    private static final int RIGHT = 20;
    private static final int TOP = 50;
    private static final int BOTTOM = 160;
    private static final double AXIS_LIMIT = 3.0;

    private Chart() {
    }

    static void write(JmhCsv csv, Map<String, String> operationLabels, Path png, String database)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<String> variants = Report.ordered(csv.variants());
        List<String> operations = csv.benchmarks();
        double max = 1.2;
        for (String op : operations) {
            Optional<JmhCsv.Row> base = csv.find(op, "", "PLAIN");
            for (String v : variants) {
                Optional<JmhCsv.Row> row = csv.find(op, "", v);
                if (base.isPresent() && row.isPresent()) {
                    double[] r = Report.ratio(row.get(), base.get());
                    max = Math.max(max, r[0] + (Double.isNaN(r[1]) ? 0 : r[1]));
                }
            }
        }
        // bars above the axis are cut at the top and labelled with their value, so that a slow peer does
        // not flatten the differences that matter near 1.0
        max = Math.min(AXIS_LIMIT, Math.ceil(max * 2) / 2);

        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.setColor(Color.BLACK);
        g.drawString("Time per operation relative to plain Hibernate + HikariCP (" + database + "; lower is better)", LEFT, 22);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.drawString("bars: ratio of means with error bars (cut at the top of the axis, labelled with their value); diamonds: ratio of best iterations", LEFT, 36);

        int plotHeight = HEIGHT - TOP - BOTTOM;
        int plotWidth = WIDTH - LEFT - RIGHT;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        for (double tick = 0; tick <= max + 1e-9; tick += max > 4 ? 1 : 0.25) {
            int y = TOP + plotHeight - (int) (tick / max * plotHeight);
            g.setColor(tick == 1.0 ? Color.DARK_GRAY : new Color(0xe0e0e0));
            g.drawLine(LEFT, y, LEFT + plotWidth, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format("%.2f", tick), 15, y + 4);
        }

        int groupWidth = plotWidth / Math.max(1, operations.size());
        int barWidth = (groupWidth - 40) / Math.max(1, variants.size());
        for (int o = 0; o < operations.size(); o++) {
            String op = operations.get(o);
            int groupX = LEFT + o * groupWidth + 20;
            Optional<JmhCsv.Row> base = csv.find(op, "", "PLAIN");
            for (int v = 0; v < variants.size(); v++) {
                Optional<JmhCsv.Row> row = csv.find(op, "", variants.get(v));
                if (base.isEmpty() || row.isEmpty()) {
                    continue;
                }
                double[] r = Report.ratio(row.get(), base.get());
                if (Double.isNaN(r[1])) {
                    r[1] = 0;
                }
                int x = groupX + v * barWidth;
                int h = (int) (Math.min(r[0], max) / max * plotHeight);
                g.setColor(COLORS[v % COLORS.length]);
                g.fillRect(x + 2, TOP + plotHeight - h, barWidth - 4, h);
                g.setColor(Color.BLACK);
                g.setStroke(new BasicStroke(1.5f));
                int yLow = TOP + plotHeight - (int) (Math.min(max, Math.max(0, r[0] - r[1])) / max * plotHeight);
                int yHigh = TOP + plotHeight - (int) (Math.min(max, r[0] + r[1]) / max * plotHeight);
                int cx = x + barWidth / 2;
                g.drawLine(cx, yLow, cx, yHigh);
                g.drawLine(cx - 4, yLow, cx + 4, yLow);
                g.drawLine(cx - 4, yHigh, cx + 4, yHigh);
                g.drawString(String.format(r[0] > max ? "%.1f" : "%.2f", r[0]), x + 2, Math.max(TOP - 2, yHigh - 4));
                double best = row.get().best() / base.get().best();
                if (!Double.isNaN(best)) {
                    int yBest = TOP + plotHeight - (int) (Math.min(best, max) / max * plotHeight);
                    g.fillPolygon(new int[] {cx, cx + 5, cx, cx - 5}, new int[] {yBest - 5, yBest, yBest + 5, yBest}, 4);
                }
            }
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
            g.drawString(operationLabels.getOrDefault(op, op), groupX, TOP + plotHeight + 18);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        }

        int legendY = TOP + plotHeight + 45;
        for (int v = 0; v < variants.size(); v++) {
            int x = LEFT + (v % 2) * 420;
            int y = legendY + (v / 2) * 20;
            g.setColor(COLORS[v % COLORS.length]);
            g.fillRect(x, y - 10, 12, 12);
            g.setColor(Color.BLACK);
            g.drawString(Report.label(variants.get(v)), x + 18, y);
        }
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }
}
