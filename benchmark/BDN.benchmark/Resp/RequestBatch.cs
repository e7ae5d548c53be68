using System;
using System.Runtime.InteropServices;
using System.Text;
using Garnet.networking;

namespace BDN.benchmark.Resp;

/// <summary>A request batch in native memory, standing in for a pinned receive buffer.</summary>
internal readonly unsafe struct RequestBatch : IDisposable
{
    public RequestBatch(string text)
    {
        byte[] bytes = Encoding.UTF8.GetBytes(text);
        Length = bytes.Length;
        Pointer = (byte*)NativeMemory.Alloc((nuint)bytes.Length);
        bytes.CopyTo(new Span<byte>(Pointer, bytes.Length));
    }

    public byte* Pointer { get; }

    public int Length { get; }

    /// <summary>Hands the batch to <paramref name="session"/> as a socket receive would.</summary>
    public int RunOn(IMessageConsumer session) => session.TryConsumeMessages(Pointer, Length);

    /// <summary>Runs the batch once and checks it was consumed whole and its replies start with <paramref name="firstReply"/>.</summary>
    public void Expect(IMessageConsumer session, NullNetworkSender sender, string firstReply)
    {
        int consumed = RunOn(session);
        string reply = Encoding.ASCII.GetString(sender.LastSent);
        if (consumed != Length || !reply.StartsWith(firstReply, StringComparison.Ordinal))
            throw new InvalidOperationException($"Unexpected reply: consumed {consumed} of {Length}; reply starts '{reply[..Math.Min(reply.Length, 40)]}'.");
    }

    /// <summary>One command as a RESP array of bulk strings.</summary>
    public static string Command(params string[] parts)
    {
        var text = new StringBuilder();
        text.Append('*').Append(parts.Length).Append("\r\n");
        foreach (string part in parts)
            text.Append('$').Append(Encoding.UTF8.GetByteCount(part)).Append("\r\n").Append(part).Append("\r\n");
        return text.ToString();
    }

    public void Dispose() => NativeMemory.Free(Pointer);
}
