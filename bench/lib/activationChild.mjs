// One window's activation as far as servers go, headless (bench/scenarios/lazy.mjs bundles this file with esbuild):
// read a user mcp.json, make the Manager the extension makes (servers start on first need, listings kept in files),
// reconcile, and read what the tree shows (each server's row: state, tool count, when listed). Prints, as JSON, the time from this
// process's start to that point, its memory, and how many processes it has started.
//   node activation.cjs <mcp.json> <listings folder> [prime]
// `prime` starts every server once so its listing is kept (what the first window ever does), then exits.
import { readdirSync, readFileSync } from 'node:fs';
import { parseMcpJson } from '../../src/manager/config';
import { FileListingStore } from '../../src/manager/listingCache';
import { Manager } from '../../src/manager/manager';

const [file, folder, mode] = process.argv.slice(2);
const silent = { traceEnabled: false, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** The processes whose parent is this one (Linux /proc): servers started, detached or not. */
function childProcesses() {
	let count = 0;
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			// Field 4 of /proc/<pid>/stat is the parent; the name (field 2) may hold spaces, so split after its ')'.
			const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
			if (Number(fields[1]) === process.pid) count++;
		} catch {
			// The process ended while listing.
		}
	}
	return count;
}

async function main() {
	const store = new FileListingStore(folder);
	const manager = new Manager({ logger: () => silent }, { autoStart: false, listingStore: store });
	const { servers } = parseMcpJson(readFileSync(file, 'utf8'), { kind: 'userMcpJson', label: 'mcp.json' });
	await manager.reconcile(servers);
	if (mode === 'prime') {
		for (const server of servers) await manager.need(server.name);
		await manager.dispose();
		await store.flush();
		return;
	}
	// What the tree renders (serversTree.ts serverDescription): a row per server, its state, how many tools it has and
	// when they were listed (from the kept listing's summary; the tools themselves are read when a row is expanded).
	const rows = manager.servers().map((s) => `${s.name} ${s.state.kind} ${s.toolNames.length} tools ${s.listedAt}`);
	const ms = performance.now();
	const result = {
		ms,
		rss: process.memoryUsage().rss,
		processes: childProcesses(),
		rows: rows.length,
		tools: manager.servers().reduce((n, s) => n + s.toolNames.length, 0),
	};
	process.stdout.write(JSON.stringify(result));
	await manager.dispose();
}

// Bundled as CommonJS (the sources' lazy require()s), so no top-level await.
main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
