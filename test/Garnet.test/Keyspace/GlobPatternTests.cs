using System.Text;
using Garnet.common;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>The glob matcher behind KEYS and SCAN MATCH, against Redis's stringmatchlen rules.</summary>
public class GlobPatternTests
{
    private static bool Match(string pattern, string text, bool ignoreCase = false)
        => GlobPattern.IsMatch(Encoding.Latin1.GetBytes(pattern), Encoding.Latin1.GetBytes(text), ignoreCase);

    [TestCase("*", "", false)] // as Redis's stringmatchlen: an empty text matches only an empty pattern
    [TestCase("*", "anything", true)]
    [TestCase("**", "", false)]
    [TestCase("a**b", "ab", true)]
    [TestCase("a*", "a", true)]
    [TestCase("a*c", "abbbc", true)]
    [TestCase("a*c", "abbb", false)]
    [TestCase("*c", "abc", true)]
    [TestCase("*c", "abcd", false)]
    [TestCase("*?", "", false)]
    [TestCase("*?", "a", true)]
    [TestCase("a*b*c", "axxbyyc", true)]
    [TestCase("a*b*c", "axxcyyb", false)]
    [TestCase("", "", true)]
    [TestCase("", "a", false)]
    [TestCase("abc", "abc", true)]
    [TestCase("abc", "abcd", false)]
    [TestCase("abcd", "abc", false)]
    public void Stars(string pattern, string text, bool expected) => Assert.That(Match(pattern, text), Is.EqualTo(expected));

    [TestCase("h?llo", "hello", true)]
    [TestCase("h?llo", "hallo", true)]
    [TestCase("h?llo", "hllo", false)]
    [TestCase("h*llo", "hllo", true)]
    [TestCase("h*llo", "heeeello", true)]
    [TestCase("h[ae]llo", "hello", true)]
    [TestCase("h[ae]llo", "hallo", true)]
    [TestCase("h[ae]llo", "hillo", false)]
    [TestCase("h[^e]llo", "hallo", true)]
    [TestCase("h[^e]llo", "hello", false)]
    [TestCase("h[a-b]llo", "hbllo", true)]
    [TestCase("h[a-b]llo", "hcllo", false)]
    [TestCase("h[b-a]llo", "hallo", true)]
    [TestCase("[a-cx-z]", "y", true)]
    [TestCase("[a-cx-z]", "m", false)]
    [TestCase("[^a-c]", "d", true)]
    [TestCase("[^a-c]", "b", false)]
    public void RedisDocumentationExamplesAndClasses(string pattern, string text, bool expected) => Assert.That(Match(pattern, text), Is.EqualTo(expected));

    [TestCase(@"h\*llo", "h*llo", true)]
    [TestCase(@"h\*llo", "hello", false)]
    [TestCase(@"\?", "?", true)]
    [TestCase(@"\?", "a", false)]
    [TestCase(@"\[a]", "[a]", true)]
    [TestCase(@"\\", @"\", true)]
    [TestCase(@"a\", @"a\", true)]
    [TestCase(@"\a", "a", true)]
    [TestCase(@"[\]]", "]", true)]
    [TestCase(@"[\^a]", "^", true)]
    [TestCase(@"[a\-z]", "-", true)]
    [TestCase(@"[a\-z]", "b", false)]
    [TestCase(@"*\*", "abc*", true)]
    [TestCase(@"*\*", "abc", false)]
    public void Escapes(string pattern, string text, bool expected) => Assert.That(Match(pattern, text), Is.EqualTo(expected));

    [TestCase("[abc", "b", true)]
    [TestCase("[abc", "d", false)]
    [TestCase("[", "a", false)]
    [TestCase("[^", "a", true)]
    [TestCase("ab[", "ab", false)]
    [TestCase("[]", "a", false)]
    [TestCase("[^]", "a", true)]
    [TestCase("[]a]", "a]", false)]
    [TestCase("[a-]", "]", true)]
    [TestCase("[-a]", "-", true)]
    [TestCase("x[a-", "xa", true)]
    public void EdgeCasesOfSets(string pattern, string text, bool expected) => Assert.That(Match(pattern, text), Is.EqualTo(expected));

    [Test]
    public void IsBinarySafe()
    {
        Assert.That(Match("a\0*", "a\0bc"), Is.True);
        Assert.That(Match("?", "\0"), Is.True);
        Assert.That(Match("[\0-\x01]", "\x01"), Is.True);
        Assert.That(Match("a\0b", "a\0c"), Is.False);
        Assert.That(Match("[\x80-\xff]", "\xc3"), Is.True);
        Assert.That(Match("[\x80-\xff]", "a"), Is.False);
    }

    [Test]
    public void IgnoresCaseOnlyWhenAsked()
    {
        Assert.That(Match("HELLO", "hello"), Is.False);
        Assert.That(Match("HELLO", "hello", ignoreCase: true), Is.True);
        Assert.That(Match("[A-C]x", "bX", ignoreCase: true), Is.True);
        Assert.That(Match("h?LLO*", "hello world", ignoreCase: true), Is.True);
    }

    [Test]
    public void PathologicalPatternsStayFast()
    {
        string text = new string('a', 5000);
        string pattern = string.Concat(System.Linq.Enumerable.Repeat("a*", 50)) + "b";
        // Backtracking only to the last star keeps this polynomial; naive recursion would not finish.
        Assert.That(Match(pattern, text), Is.False);
        Assert.That(Match(pattern.TrimEnd('b'), text), Is.True);
    }

    [Test]
    public void MatchesEverythingIsOnlyTheSingleStar()
    {
        Assert.That(GlobPattern.MatchesEverything("*"u8), Is.True);
        Assert.That(GlobPattern.MatchesEverything("**"u8), Is.False);
        Assert.That(GlobPattern.MatchesEverything("a*"u8), Is.False);
        Assert.That(GlobPattern.MatchesEverything(""u8), Is.False);
    }
}
