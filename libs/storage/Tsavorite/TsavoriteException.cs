using System;

namespace Tsavorite;

/// <summary>An error raised by the storage engine for a request it cannot carry out.</summary>
public sealed class TsavoriteException : Exception
{
    /// <summary>Creates the exception with a message saying what went wrong.</summary>
    public TsavoriteException(string message) : base(message)
    {
    }
}
