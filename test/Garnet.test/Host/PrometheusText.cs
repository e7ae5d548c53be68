using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using NUnit.Framework;

namespace Garnet.test.Host;

/// <summary>One sample of a Prometheus text exposition: a name, its labels and a value.</summary>
internal sealed record PrometheusSample(string Name, IReadOnlyDictionary<string, string> Labels, double Value);

/// <summary>
/// A strict reader of Prometheus's text format (version 0.0.4): "# HELP" and "# TYPE" comments, then samples of the
/// form <c>name{label="value",...} number</c>. Anything else fails the test, so the endpoint's output is checked too.
/// </summary>
internal sealed class PrometheusText
{
    private readonly Dictionary<string, string> _types = new();
    private readonly List<PrometheusSample> _samples = new();

    public static PrometheusText Parse(string text)
    {
        var parsed = new PrometheusText();
        foreach (string line in text.Split('\n'))
        {
            if (line.Length == 0)
                continue;
            if (line.StartsWith("# TYPE ", StringComparison.Ordinal))
            {
                string[] parts = line.Substring(7).Split(' ');
                Assert.That(parts, Has.Length.EqualTo(2), line);
                Assert.That(parts[1], Is.AnyOf("counter", "gauge", "histogram", "summary", "untyped"), line);
                Assert.That(parsed._types.TryAdd(parts[0], parts[1]), Is.True, "a metric is typed once: " + line);
                continue;
            }
            if (line.StartsWith("# ", StringComparison.Ordinal))
                continue;
            parsed._samples.Add(ParseSample(line));
        }
        return parsed;
    }

    /// <summary>The type a "# TYPE" line gave <paramref name="metric"/>, or null.</summary>
    public string? TypeOf(string metric) => _types.GetValueOrDefault(metric);

    /// <summary>The samples named <paramref name="name"/> whose labels include <paramref name="labels"/> (name, value pairs).</summary>
    public List<PrometheusSample> Samples(string name, params string[] labels)
    {
        var found = new List<PrometheusSample>();
        foreach (var sample in _samples)
        {
            if (sample.Name == name && HasLabels(sample, labels))
                found.Add(sample);
        }
        return found;
    }

    /// <summary>The one sample named <paramref name="name"/> with <paramref name="labels"/>; fails if there is not exactly one.</summary>
    public double Value(string name, params string[] labels)
    {
        var found = Samples(name, labels);
        Assert.That(found, Has.Count.EqualTo(1), $"one sample of {name} {string.Join(",", labels)}");
        return found[0].Value;
    }

    /// <summary>Whether a sample named <paramref name="name"/> with <paramref name="labels"/> is there.</summary>
    public bool Contains(string name, params string[] labels) => Samples(name, labels).Count > 0;

    private static bool HasLabels(PrometheusSample sample, string[] labels)
    {
        for (int i = 0; i + 1 < labels.Length; i += 2)
        {
            if (!sample.Labels.TryGetValue(labels[i], out string? value) || value != labels[i + 1])
                return false;
        }
        return true;
    }

    private static PrometheusSample ParseSample(string line)
    {
        int at = 0;
        while (at < line.Length && (char.IsAsciiLetterOrDigit(line[at]) || line[at] is '_' or ':'))
            at++;
        Assert.That(at, Is.GreaterThan(0), "a sample starts with its name: " + line);
        string name = line.Substring(0, at);
        var labels = new Dictionary<string, string>();
        if (at < line.Length && line[at] == '{')
        {
            at++;
            while (line[at] != '}')
            {
                int equals = line.IndexOf('=', at);
                string label = line.Substring(at, equals - at);
                Assert.That(line[equals + 1], Is.EqualTo('"'), line);
                at = equals + 2;
                var value = new StringBuilder();
                while (line[at] != '"')
                {
                    if (line[at] == '\\')
                    {
                        at++;
                        value.Append(line[at] == 'n' ? '\n' : line[at]);
                    }
                    else
                    {
                        value.Append(line[at]);
                    }
                    at++;
                }
                at++;
                Assert.That(labels.TryAdd(label, value.ToString()), Is.True, "a label appears once: " + line);
                if (line[at] == ',')
                    at++;
            }
            at++;
        }
        Assert.That(line[at], Is.EqualTo(' '), "a space before the value: " + line);
        string[] rest = line.Substring(at + 1).Split(' ');
        Assert.That(rest.Length, Is.InRange(1, 2), "a value and an optional timestamp: " + line);
        return new PrometheusSample(name, labels, ParseValue(rest[0], line));
    }

    private static double ParseValue(string text, string line)
    {
        switch (text)
        {
            case "+Inf": return double.PositiveInfinity;
            case "-Inf": return double.NegativeInfinity;
            case "NaN": return double.NaN;
        }
        Assert.That(double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double value), Is.True, "a number: " + line);
        return value;
    }
}
