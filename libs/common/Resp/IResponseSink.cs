namespace Garnet.common;

/// <summary>Where a <see cref="RespWriter"/> writes: a buffer that can be flushed to its destination.</summary>
public unsafe interface IResponseSink
{
    /// <summary>Start of the buffer; stable until the next <see cref="Flush"/>.</summary>
    byte* BufferStart { get; }

    /// <summary>Length of the buffer in bytes.</summary>
    int BufferLength { get; }

    /// <summary>Sends the first <paramref name="length"/> bytes; afterwards the whole buffer is free. False if the destination is gone.</summary>
    bool Flush(int length);

    /// <summary>
    /// The writer holds no pointer into the buffer any more and everything written was flushed: a sink that lends its
    /// buffer may take it back, and <see cref="BufferStart"/> lends one again. Sinks that own theirs do nothing.
    /// </summary>
    void ReleaseBuffer()
    {
    }
}
