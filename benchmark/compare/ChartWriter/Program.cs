using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;

namespace ChartWriter;

/// <summary>
/// Turns the results CSV of <c>benchmark/compare/compare.sh</c> into an SVG with two horizontal bar
/// charts: throughput per workload (log scale, since batch 1 and batch 4096 differ by orders of
/// magnitude) and p99 latency for the workloads that report it. Usage: <c>ChartWriter results.csv out.svg [title]</c>.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length < 2)
        {
            Console.Error.WriteLine("usage: ChartWriter <results.csv> <out.svg> [title]");
            return 2;
        }

        List<Row> rows = ResultsCsv.Read(args[0]);
        string title = args.Length > 2 ? args[2] : "this server vs Redis";
        File.WriteAllText(args[1], SvgChart.Render(rows, title));
        return 0;
    }
}

/// <summary>One workload's figures for both servers; a missing figure is <see cref="double.NaN"/>.</summary>
public sealed record Row(string Workload, double ThisOps, double RedisOps, double ThisP99, double RedisP99);

/// <summary>
/// Reads the CSV that compare.sh writes: <c>workload,server,ops_per_sec,p99_us,status</c>, where server
/// is <c>this</c> or <c>redis</c> and status is <c>ok</c> or <c>not supported</c>. Workload names hold no commas.
/// </summary>
public static class ResultsCsv
{
    public static List<Row> Read(string path)
    {
        var order = new List<string>();
        var figures = new Dictionary<string, double[]>();
        bool header = true;
        foreach (string line in File.ReadLines(path))
        {
            if (header)
            {
                header = false;
                continue;
            }

            string[] f = line.Split(',');
            if (f.Length < 5)
                continue;

            if (!figures.TryGetValue(f[0], out double[]? v))
            {
                v = [double.NaN, double.NaN, double.NaN, double.NaN];
                figures.Add(f[0], v);
                order.Add(f[0]);
            }

            int slot = f[1] == "redis" ? 1 : 0;
            if (f[4] == "ok")
            {
                v[slot] = Parse(f[2]);
                v[slot + 2] = Parse(f[3]);
            }
        }

        var rows = new List<Row>(order.Count);
        foreach (string w in order)
        {
            double[] v = figures[w];
            rows.Add(new Row(w, v[0], v[1], v[2], v[3]));
        }

        return rows;
    }

    private static double Parse(string s) =>
        double.TryParse(s, NumberStyles.Float, CultureInfo.InvariantCulture, out double d) ? d : double.NaN;
}

/// <summary>Writes the SVG by hand: a few rectangles and text elements need no library.</summary>
public static class SvgChart
{
    private const int LabelWidth = 300;
    private const int PlotWidth = 520;
    private const int BarHeight = 9;
    private const int RowHeight = 2 * BarHeight + 8;
    private const int PanelGap = 60;
    private const string ThisColor = "#d9534f";
    private const string RedisColor = "#5b7db1";

    public static string Render(List<Row> rows, string title)
    {
        var latencyRows = new List<Row>();
        foreach (Row r in rows)
        {
            if (!double.IsNaN(r.ThisP99) || !double.IsNaN(r.RedisP99))
                latencyRows.Add(r);
        }

        int top = 60;
        int throughputHeight = rows.Count * RowHeight;
        int latencyTop = top + throughputHeight + PanelGap;
        int height = latencyTop + latencyRows.Count * RowHeight + 50;
        int width = LabelWidth + PlotWidth + 120;

        var svg = new StringBuilder();
        svg.Append(Inv($"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"11\">\n"));
        svg.Append(Inv($"<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n"));
        svg.Append(Inv($"<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{Escape(title)}</text>\n"));
        Legend(svg, LabelWidth, 20);

        Panel(svg, rows, top, "Throughput, ops/s (log scale; higher is better)", r => (r.ThisOps, r.RedisOps), log: true);
        Panel(svg, latencyRows, latencyTop, "p99 latency, µs (log scale; lower is better)", r => (r.ThisP99, r.RedisP99), log: true);

        svg.Append("</svg>\n");
        return svg.ToString();
    }

    private static void Legend(StringBuilder svg, int x, int y)
    {
        svg.Append(Inv($"<rect x=\"{x}\" y=\"{y - 9}\" width=\"10\" height=\"10\" fill=\"{ThisColor}\"/><text x=\"{x + 14}\" y=\"{y}\">this server</text>\n"));
        svg.Append(Inv($"<rect x=\"{x + 100}\" y=\"{y - 9}\" width=\"10\" height=\"10\" fill=\"{RedisColor}\"/><text x=\"{x + 114}\" y=\"{y}\">Redis</text>\n"));
    }

    private static void Panel(StringBuilder svg, List<Row> rows, int top, string heading, Func<Row, (double, double)> pick, bool log)
    {
        svg.Append(Inv($"<text x=\"10\" y=\"{top - 12}\" font-size=\"12\" font-weight=\"bold\">{Escape(heading)}</text>\n"));
        double max = 0;
        double min = double.MaxValue;
        foreach (Row r in rows)
        {
            (double a, double b) = pick(r);
            foreach (double v in new[] { a, b })
            {
                if (double.IsNaN(v) || v <= 0)
                    continue;
                max = Math.Max(max, v);
                min = Math.Min(min, v);
            }
        }

        if (max <= 0)
            return;

        // Log axis from the decade below the smallest value to the decade above the largest.
        double lo = log ? Math.Pow(10, Math.Floor(Math.Log10(min))) : 0;
        double hi = log ? Math.Pow(10, Math.Ceiling(Math.Log10(max))) : max * 1.1;
        double Scale(double v) => log ? (Math.Log10(v) - Math.Log10(lo)) / (Math.Log10(hi) - Math.Log10(lo)) * PlotWidth : v / hi * PlotWidth;

        int bottom = top + rows.Count * RowHeight;
        if (log)
        {
            for (double t = lo; t <= hi * 1.001; t *= 10)
                Tick(svg, LabelWidth + Scale(t), top, bottom, FormatNumber(t));
        }
        else
        {
            double step = NiceStep(hi / 5);
            for (double t = 0; t <= hi; t += step)
                Tick(svg, LabelWidth + Scale(t), top, bottom, FormatNumber(t));
        }

        int y = top;
        foreach (Row r in rows)
        {
            (double a, double b) = pick(r);
            svg.Append(Inv($"<text x=\"{LabelWidth - 6}\" y=\"{y + BarHeight + 4}\" text-anchor=\"end\">{Escape(r.Workload)}</text>\n"));
            Bar(svg, y, a, ThisColor, Scale);
            Bar(svg, y + BarHeight, b, RedisColor, Scale);
            y += RowHeight;
        }
    }

    private static void Tick(StringBuilder svg, double x, int top, int bottom, string label)
    {
        svg.Append(Inv($"<line x1=\"{x:F1}\" y1=\"{top}\" x2=\"{x:F1}\" y2=\"{bottom}\" stroke=\"#ddd\"/>\n"));
        svg.Append(Inv($"<text x=\"{x:F1}\" y=\"{bottom + 12}\" text-anchor=\"middle\" fill=\"#555\">{label}</text>\n"));
    }

    private static void Bar(StringBuilder svg, int y, double value, string color, Func<double, double> scale)
    {
        if (double.IsNaN(value) || value <= 0)
        {
            svg.Append(Inv($"<text x=\"{LabelWidth + 4}\" y=\"{y + BarHeight - 1}\" fill=\"#888\" font-size=\"9\">not supported</text>\n"));
            return;
        }

        double w = Math.Max(1, scale(value));
        svg.Append(Inv($"<rect x=\"{LabelWidth}\" y=\"{y}\" width=\"{w:F1}\" height=\"{BarHeight - 1}\" fill=\"{color}\"/>\n"));
        svg.Append(Inv($"<text x=\"{LabelWidth + w + 4:F1}\" y=\"{y + BarHeight - 1}\" font-size=\"9\">{FormatNumber(value)}</text>\n"));
    }

    private static double NiceStep(double raw)
    {
        double p = Math.Pow(10, Math.Floor(Math.Log10(raw)));
        double m = raw / p;
        return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    }

    private static string FormatNumber(double v) => v switch
    {
        >= 1e6 => Inv($"{v / 1e6:0.##}M"),
        >= 1e3 => Inv($"{v / 1e3:0.##}k"),
        _ => Inv($"{v:0.#}"),
    };

    private static string Inv(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);

    private static string Escape(string s) => s.Replace("&", "&amp;").Replace("<", "&lt;").Replace(">", "&gt;");
}
