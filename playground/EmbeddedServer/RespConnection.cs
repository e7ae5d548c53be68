using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace EmbeddedServer;

/// <summary>
/// A minimal RESP2 client over a socket, enough for the sample: sends a command as an array of bulk
/// strings and reads one reply, rendered as text ("OK", "7", "(nil)", "ERR ...", or items in brackets).
/// </summary>
public sealed class RespConnection : IDisposable
{
    private readonly TcpClient _client;
    private readonly BufferedStream _stream;

    public RespConnection(int port)
    {
        _client = new TcpClient();
        _client.Connect(IPAddress.Loopback, port);
        _stream = new BufferedStream(_client.GetStream());
    }

    public string Execute(params string[] command)
    {
        var request = new StringBuilder();
        request.Append('*').Append(command.Length).Append("\r\n");
        foreach (string part in command)
            request.Append('$').Append(Encoding.UTF8.GetByteCount(part)).Append("\r\n").Append(part).Append("\r\n");
        _stream.Write(Encoding.UTF8.GetBytes(request.ToString()));
        _stream.Flush();
        return ReadReply();
    }

    private string ReadReply()
    {
        string line = ReadLine();
        switch (line[0])
        {
            case '+':
            case '-':
            case ':':
                return line.Substring(1);
            case '$':
                int length = int.Parse(line.AsSpan(1));
                if (length < 0)
                    return "(nil)";
                byte[] data = new byte[length + 2];
                _stream.ReadExactly(data);
                return Encoding.UTF8.GetString(data, 0, length);
            case '*':
                int count = int.Parse(line.AsSpan(1));
                if (count < 0)
                    return "(nil)";
                var items = new string[count];
                for (int i = 0; i < count; i++)
                    items[i] = ReadReply();
                return "[" + string.Join(", ", items) + "]";
            default:
                throw new InvalidDataException("Unexpected reply: " + line);
        }
    }

    private string ReadLine()
    {
        var line = new StringBuilder();
        while (true)
        {
            int b = _stream.ReadByte();
            if (b < 0)
                throw new EndOfStreamException("The server closed the connection.");
            if (b == '\r')
            {
                _stream.ReadByte();
                return line.ToString();
            }
            line.Append((char)b);
        }
    }

    public void Dispose()
    {
        _stream.Dispose();
        _client.Dispose();
    }
}
