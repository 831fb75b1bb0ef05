/**
 * How many servers of each kind the Manager starts at once, by default (ManagerOptions.maxConcurrentStarts); in its
 * own file so the command line's launcher can start no more than that early without loading the Manager.
 *
 * Measured with bench/scenarios/manager.mjs (20 Node stdio servers, 2 cores shared with other work, medians of 5
 * rounds, raw start of all 20 at once = 1.42 s): limit 4 → 2.50 s (1.76x), 8 → 1.95 s (1.37x), 16 → 1.58 s (1.11x),
 * 20 → 1.39 s (0.98x). Low limits leave the CPU idle while processes wait on I/O; 16 meets the 1.2x target and still
 * bounds the burst when dozens of servers are configured. Remote starts mostly wait on the network: same headroom.
 */
export const DEFAULT_MAX_CONCURRENT_STARTS = { stdio: 16, remote: 16 } as const;
