package io.shardset.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Writes the report's charts as PNG files next to results.md and registers them with the
 * report, which links them: throughput per workload and system, and planning time by shard
 * count.
 */
final class Charts {
  static final String THROUGHPUT = "throughput.png";
  static final String PLANNING = "planning.png";
  static final String CONCURRENCY = "concurrency.png";

  private static final int PANEL_WIDTH = 420;
  private static final int PANEL_HEIGHT = 320;
  private static final int COLUMNS = 3;

  private Charts() {
  }

  /** Writes every chart the report has data for into {@code dir}. */
  static void write(Report report, Path dir) throws IOException {
    // Draw without a display (servers, CI); must be set before AWT loads.
    System.setProperty("java.awt.headless", "true");
    final Map<String, Map<String, Double>> rates = ChartData.throughput(report.rows());
    if (!rates.isEmpty()) {
      ImageIO.write(throughput(rates), "png",
          dir.resolve(THROUGHPUT).toFile());
      report.chart(new Report.Chart("Throughput per workload and system", THROUGHPUT));
    }
    if (!report.planning().isEmpty()) {
      save(planning(ChartData.planning(report.planning())), dir.resolve(PLANNING));
      report.chart(new Report.Chart("Planning time by shard count", PLANNING));
    }
    final Map<String, ChartData.Series> clients = ChartData.concurrency(report.concurrency());
    if (!clients.isEmpty()) {
      save(concurrency(clients), dir.resolve(CONCURRENCY));
      report.chart(new Report.Chart("Throughput by concurrent clients (w17)", CONCURRENCY));
    }
  }

  private static XYChart concurrency(Map<String, ChartData.Series> data) {
    final XYChart chart = new XYChartBuilder().width(900).height(560)
        .title("Routed point queries per second by concurrent clients (higher is better)")
        .xAxisTitle("client threads").yAxisTitle("queries per second, all clients").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    data.forEach((system, series) -> chart.addSeries(system, series.x(), series.y()));
    return chart;
  }

  /**
   * One small bar chart per workload, side by side in a grid: the workloads' rates differ by
   * orders of magnitude, and each panel's own linear scale keeps its systems comparable.
   */
  private static BufferedImage throughput(Map<String, Map<String, Double>> data) {
    final List<BufferedImage> panels = new ArrayList<>();
    data.forEach((workload, bySystem) -> {
      final CategoryChart chart = new CategoryChartBuilder().width(PANEL_WIDTH)
          .height(PANEL_HEIGHT).title(workload).yAxisTitle("ops/s (1 / median latency)").build();
      chart.getStyler().setLegendVisible(false);
      chart.getStyler().setLabelsVisible(true);
      chart.getStyler().setDecimalPattern("#,##0.#");
      chart.addSeries("ops/s", new ArrayList<>(bySystem.keySet()),
          new ArrayList<>(bySystem.values()));
      panels.add(BitmapEncoder.getBufferedImage(chart));
    });
    final int columns = Math.min(COLUMNS, panels.size());
    final int rows = (panels.size() + columns - 1) / columns;
    final BufferedImage grid = new BufferedImage(columns * PANEL_WIDTH, rows * PANEL_HEIGHT,
        BufferedImage.TYPE_INT_RGB);
    final Graphics2D g = grid.createGraphics();
    try {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, grid.getWidth(), grid.getHeight());
      for (int i = 0; i < panels.size(); i++) {
        g.drawImage(panels.get(i), (i % columns) * PANEL_WIDTH, (i / columns) * PANEL_HEIGHT,
            null);
      }
    } finally {
      g.dispose();
    }
    return grid;
  }

  private static XYChart planning(Map<String, ChartData.PlanningSeries> data) {
    final XYChart chart = new XYChartBuilder().width(900).height(560)
        .title("Time to plan one point query (log scales; lower is better)")
        .xAxisTitle("shards").yAxisTitle("median milliseconds").build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    data.forEach((system, series) -> {
      if (!series.shards().isEmpty()) {
        chart.addSeries(system, series.shards(), series.medianMillis());
      }
      if (!series.stoppedShards().isEmpty()) {
        final XYSeries stopped = chart.addSeries(system + " stopped (over "
            + Math.round(series.stoppedAtMillis().get(0) / 1000) + " s)",
            series.stoppedShards(), series.stoppedAtMillis());
        stopped.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        stopped.setMarker(SeriesMarkers.TRIANGLE_UP);
      }
    });
    return chart;
  }

  private static void save(XYChart chart, Path file)
      throws IOException {
    final String name = file.toString();
    // The encoder adds the extension itself.
    BitmapEncoder.saveBitmap(chart, name.substring(0, name.length() - ".png".length()),
        BitmapEncoder.BitmapFormat.PNG);
  }
}
