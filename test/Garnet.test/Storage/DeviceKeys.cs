using System.Globalization;
using System.Text;

namespace Garnet.test.Storage;

/// <summary>
/// Keys the disk-read tests put on the device: "key:N" with a value of about 300 bytes naming N, written until a few
/// times the memory went by, so the first ones have left memory.
/// </summary>
internal static class DeviceKeys
{
    public static string Key(int key) => "key:" + key.ToString(CultureInfo.InvariantCulture);

    public static string Value(int key) => key.ToString(CultureInfo.InvariantCulture) + new string('v', 300);

    public static string Bulk(string value) => $"${value.Length}\r\n{value}\r\n";

    /// <summary>Writes keys until four times <paramref name="memory"/> went by; returns how many.</summary>
    public static int Fill(RawClient client, long memory)
    {
        int keys = 0;
        for (long written = 0; written < 4 * memory; written += 200 * 340)
        {
            var batch = new StringBuilder();
            for (int i = 0; i < 200; i++, keys++)
                batch.Append(RawClient.Encode("SET", Key(keys), Value(keys)));
            client.SendRaw(batch.ToString());
            for (int i = 0; i < 200; i++)
            {
                string reply = client.ReadReply();
                if (reply != "+OK\r\n")
                    throw new NUnit.Framework.AssertionException("SET got " + reply);
            }
        }
        return keys;
    }
}
