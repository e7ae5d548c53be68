using System;

namespace Garnet;

/// <summary>An invalid option value; its message is the one-line error the executable prints.</summary>
internal sealed class OptionsException : Exception
{
    public OptionsException(string message)
        : base(message)
    {
    }
}
