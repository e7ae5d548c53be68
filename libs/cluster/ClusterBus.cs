using System;
using System.Collections.Generic;
using System.Threading;
using Garnet.server;

namespace Garnet.cluster;

/// <summary>
/// The cluster bus: a link to every other known node (<see cref="PeerLink"/>), and a thread that every 100 ms lets the
/// node judge the others' health (<see cref="ClusterNode.Tick"/>) and starts or ends links as nodes are met or dropped.
/// Messages travel on the nodes' client port as CLUSTER GOSSIP, so a node needs no second port: redis-cli's
/// CLUSTER MEET ip port reaches it.
/// </summary>
internal sealed class ClusterBus : IDisposable
{
    private const int TickMilliseconds = 100;

    private readonly ClusterNode _node;
    private readonly ServerOptions _options;
    private readonly Thread _thread;
    private readonly object _wakeLock = new();
    private readonly CancellationTokenSource _stop = new();
    private readonly Dictionary<KnownNode, PeerLink> _links = new(ReferenceEqualityComparer.Instance);
    private bool _woken;
    private bool _stopping;

    public ClusterBus(ClusterNode node, ServerOptions options)
    {
        _node = node;
        _options = options;
        _thread = new Thread(Run) { IsBackground = true, Name = "Garnet cluster bus" };
        _thread.Start();
    }

    /// <summary>Runs the next tick now (a node was met: its link starts without waiting).</summary>
    public void Wake()
    {
        lock (_wakeLock)
        {
            _woken = true;
            Monitor.Pulse(_wakeLock);
        }
    }

    /// <summary>Tells every node that <paramref name="id"/> failed, on each link's next message.</summary>
    public void BroadcastFail(string id)
    {
        lock (_links)
        {
            foreach (var link in _links.Values)
                link.QueueFail(id);
        }
    }

    /// <summary>Asks every node for its vote in this replica's election, on each link's next message.</summary>
    public void RequestVotes()
    {
        lock (_links)
        {
            foreach (var link in _links.Values)
                link.QueueVoteRequest();
        }
    }

    /// <summary>Sends every link's next ping now (this node's configuration changed).</summary>
    public void PokeAll()
    {
        lock (_links)
        {
            foreach (var link in _links.Values)
                link.Poke();
        }
    }

    /// <summary>The links, for CLUSTER LINKS.</summary>
    public List<PeerLink> Links()
    {
        lock (_links)
            return [.. _links.Values];
    }

    private void Run()
    {
        while (true)
        {
            lock (_wakeLock)
            {
                if (!_woken && !_stopping)
                    Monitor.Wait(_wakeLock, TickMilliseconds);
                _woken = false;
                if (_stopping)
                    return;
            }
            var nodes = _node.Tick();
            var wanted = new HashSet<KnownNode>(nodes, ReferenceEqualityComparer.Instance);
            lock (_links)
            {
                var ended = new List<KnownNode>();
                foreach (var (target, link) in _links)
                {
                    if (!wanted.Contains(target) || link.Ended)
                    {
                        link.Stop();
                        ended.Add(target);
                    }
                }
                foreach (var target in ended)
                    _links.Remove(target);
                foreach (var target in nodes)
                {
                    if (!_links.ContainsKey(target))
                        _links[target] = new PeerLink(_node, target, _options, _stop.Token);
                }
            }
        }
    }

    public void Dispose()
    {
        lock (_wakeLock)
        {
            _stopping = true;
            Monitor.Pulse(_wakeLock);
        }
        _thread.Join();
        _stop.Cancel();
        List<PeerLink> links;
        lock (_links)
        {
            links = [.. _links.Values];
            _links.Clear();
        }
        foreach (var link in links)
            link.Wait(TimeSpan.FromSeconds(5));
        _stop.Dispose();
    }
}
