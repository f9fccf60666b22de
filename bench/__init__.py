"""`make bench`: Arbiter's figures, each beside its floor or peer from the same run.

A figure alone says little on a shared 2-core machine; a figure divided by
its floor (a no-op gRPC server, a bare Redis hop, a trivial aggregate, the
eventsourcing library's own get+save) or by its peer (boardgame.io's server
playing a game of the same shape) measured in the same run, under the same
load, says how much of the cost is ours. See docs/performance.md.
"""
