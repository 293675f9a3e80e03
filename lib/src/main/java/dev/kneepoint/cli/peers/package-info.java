/**
 * {@code kneepoint bench --peers}: reading the outputs of Kneepoint and of the peer load generators
 * (AIPerf, GuideLLM) run by {@code bench/peers.sh} against the same simulator and workload, and comparing
 * them: client CPU per token, the highest open-loop rate each sustains, dispatch accuracy and the agreement
 * of their TTFT / TPOT / throughput figures. {@link dev.kneepoint.cli.peers.PeerOutputs} parses one run
 * directory into a {@link dev.kneepoint.cli.peers.PeerRun}; {@link dev.kneepoint.cli.peers.PeerComparison}
 * turns the runs into ratios; {@link dev.kneepoint.cli.peers.PeerReport} formats them (markdown, JSON).
 */
package dev.kneepoint.cli.peers;
