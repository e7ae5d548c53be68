using System;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// LOLWUT [VERSION v] [arguments]: a piece of generative art chosen by version, then a line with the server's Redis
/// version. As in Redis 7.2, the current version draws nothing; VERSION 5 draws squares that fall into disorder row
/// after row (after Georg Nees's "Schotter") and VERSION 6 a skyline, both rendered here in this server's own way.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void Lolwut()
    {
        int first = 1;
        int version = 7;
        if (_argCount >= 3 && _args[1].EqualsUpper("VERSION"u8))
        {
            if (!NumberFormat.TryParseLong(_args[2].Span, out long requested))
            {
                _writer.WriteError(RespStrings.ErrNotInteger);
                return;
            }
            // Redis reads the version as "<v>.0.0", where 4.9 would count as 5: whole versions only here.
            version = (int)Math.Clamp(requested, int.MinValue, int.MaxValue);
            first = 3;
        }
        string? art = version switch
        {
            5 => LolwutArt.TryParseArguments(_args.AsSpan(first, _argCount - first), [66, 8, 12], [(1, 1000), (1, 200), (1, 200)], out var values, out string? error)
                ? LolwutArt.Schotter((int)values[0], (int)values[1], (int)values[2], Random.Shared) + "\nGeorg Nees - schotter, plotter on paper, 1968. "
                : Fail(error!),
            6 => LolwutArt.TryParseArguments(_args.AsSpan(first, _argCount - first), [80, 20], [(1, 1000), (1, 1000)], out var values, out string? error)
                ? LolwutArt.Skyline((int)values[0], (int)values[1], Random.Shared) + "\nA skyline of towers, each window lit at random. "
                : Fail(error!),
            _ => "",
        };
        if (art == null)
            return;
        _writer.WriteVerbatim(Encoding.UTF8.GetBytes(art + "Redis ver. " + ServerStrings.RedisVersionText + "\n"));

        string? Fail(string error)
        {
            _writer.WriteError(error);
            return null;
        }
    }
}

/// <summary>The drawings of LOLWUT: plain functions of their size and a random source.</summary>
internal static class LolwutArt
{
    /// <summary>
    /// Reads up to <paramref name="defaults"/>.Length integer arguments, each clamped into its range; false with the
    /// error when one is not an integer.
    /// </summary>
    public static bool TryParseArguments(ReadOnlySpan<ArgSlice> args, long[] defaults, (long Min, long Max)[] ranges, out long[] values, out string? error)
    {
        values = defaults;
        error = null;
        for (int i = 0; i < args.Length && i < defaults.Length; i++)
        {
            if (!NumberFormat.TryParseLong(args[i].Span, out long value))
            {
                error = "ERR value is not an integer or out of range";
                return false;
            }
            values[i] = Math.Clamp(value, ranges[i].Min, ranges[i].Max);
        }
        return true;
    }

    /// <summary>
    /// A grid of <paramref name="perRow"/> by <paramref name="perColumn"/> squares, <paramref name="columns"/> characters
    /// wide: the first row straight, each next one turned and shifted further at random. Drawn on a canvas of dots, two
    /// across and four down per character, written as Braille patterns.
    /// </summary>
    public static string Schotter(int columns, int perRow, int perColumn, Random random)
    {
        int width = columns * 2;
        int margin = width > 4 ? 2 : 0;
        double side = (double)(width - (2 * margin)) / perRow;
        int height = (int)((side * perColumn) + (2 * margin));
        var canvas = new DotCanvas(width, height);
        for (int row = 0; row < perColumn; row++)
        {
            // Disorder grows with the row: none at the top, full at the bottom.
            double disorder = perColumn > 1 ? (double)row / (perColumn - 1) : 0;
            for (int column = 0; column < perRow; column++)
            {
                double centerX = margin + ((column + 0.5) * side) + ((random.NextDouble() - 0.5) * disorder * side * 0.6);
                double centerY = margin + ((row + 0.5) * side) + ((random.NextDouble() - 0.5) * disorder * side * 0.6);
                double angle = (random.NextDouble() - 0.5) * disorder * Math.PI / 2;
                DrawSquare(canvas, centerX, centerY, side / 2, angle);
            }
        }
        return canvas.ToBraille();
    }

    /// <summary>Towers of random heights along a street, <paramref name="columns"/> by <paramref name="rows"/> characters, with lit windows.</summary>
    public static string Skyline(int columns, int rows, Random random)
    {
        var grid = new char[rows, columns];
        for (int y = 0; y < rows; y++)
        {
            for (int x = 0; x < columns; x++)
                grid[y, x] = ' ';
        }
        int at = 0;
        while (at < columns)
        {
            int towerWidth = Math.Min(columns - at, 4 + random.Next(6));
            int towerHeight = 2 + random.Next(Math.Max(1, rows - 2));
            for (int y = rows - towerHeight; y < rows; y++)
            {
                for (int x = at; x < at + towerWidth; x++)
                {
                    bool edge = x == at || x == at + towerWidth - 1;
                    grid[y, x] = y == rows - towerHeight ? '_' : edge ? '|' : random.Next(3) == 0 ? '#' : '.';
                }
            }
            at += towerWidth + random.Next(2);
        }
        var text = new StringBuilder((columns + 1) * rows);
        for (int y = 0; y < rows; y++)
        {
            for (int x = 0; x < columns; x++)
                text.Append(grid[y, x]);
            text.Append('\n');
        }
        return text.ToString();
    }

    private static void DrawSquare(DotCanvas canvas, double centerX, double centerY, double half, double angle)
    {
        Span<double> xs = stackalloc double[4];
        Span<double> ys = stackalloc double[4];
        double cos = Math.Cos(angle), sin = Math.Sin(angle);
        ReadOnlySpan<double> cornersX = [-1, 1, 1, -1];
        ReadOnlySpan<double> cornersY = [-1, -1, 1, 1];
        for (int i = 0; i < 4; i++)
        {
            xs[i] = centerX + (((cornersX[i] * cos) - (cornersY[i] * sin)) * half);
            ys[i] = centerY + (((cornersX[i] * sin) + (cornersY[i] * cos)) * half);
        }
        for (int i = 0; i < 4; i++)
            canvas.Line(xs[i], ys[i], xs[(i + 1) % 4], ys[(i + 1) % 4]);
    }

    /// <summary>A monochrome canvas of dots.</summary>
    private sealed class DotCanvas
    {
        private readonly bool[] _dots;

        public DotCanvas(int width, int height)
        {
            Width = width;
            Height = height;
            _dots = new bool[width * height];
        }

        public int Width { get; }

        public int Height { get; }

        public void Set(int x, int y)
        {
            if ((uint)x < (uint)Width && (uint)y < (uint)Height)
                _dots[(y * Width) + x] = true;
        }

        public bool Get(int x, int y) => (uint)x < (uint)Width && (uint)y < (uint)Height && _dots[(y * Width) + x];

        /// <summary>A straight line, one dot per step along its longer axis.</summary>
        public void Line(double x0, double y0, double x1, double y1)
        {
            int steps = (int)Math.Ceiling(Math.Max(Math.Abs(x1 - x0), Math.Abs(y1 - y0)));
            for (int i = 0; i <= steps; i++)
            {
                double t = steps == 0 ? 0 : (double)i / steps;
                Set((int)Math.Round(x0 + ((x1 - x0) * t)), (int)Math.Round(y0 + ((y1 - y0) * t)));
            }
        }

        /// <summary>Each 2-by-4 block of dots as one Braille character (U+2800 plus a bit per raised dot), a line per four rows.</summary>
        public string ToBraille()
        {
            ReadOnlySpan<int> bits = [0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80]; // (x, y) pairs: y * 2 + x
            var text = new StringBuilder();
            for (int y = 0; y < Height; y += 4)
            {
                for (int x = 0; x < Width; x += 2)
                {
                    int pattern = 0;
                    for (int dy = 0; dy < 4; dy++)
                    {
                        for (int dx = 0; dx < 2; dx++)
                        {
                            if (Get(x + dx, y + dy))
                                pattern |= bits[(dy * 2) + dx];
                        }
                    }
                    text.Append((char)(0x2800 + pattern));
                }
                text.Append('\n');
            }
            return text.ToString();
        }
    }
}
