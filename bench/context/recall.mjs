// Recall@5 of tool search on the context bench's requests, split in two halves (even and odd positions) so a change
// to the ranking can be tuned on one half and checked on the other: a change that helps only the half it was tuned on
// fits the labels, not the task. `node bench/context/recall.mjs [--misses] [--from N]` (--from: only requests from
// position N on, e.g. the ones added after a tuning round).
import { bundle, loadCatalogue } from '../scenarios/context.mjs';

const lib = await bundle();
const args = process.argv.slice(2);
const from = args.includes('--from') ? Number(args[args.indexOf('--from') + 1]) : 0;
const { servers, tools, requests } = loadCatalogue();
const indexer = new lib.ToolIndexer();
for (const server of servers)
	indexer.update(
		server.name,
		tools.filter((named) => named.server === server.name),
	);
const halves = { even: [0, 0], odd: [0, 0], all: [0, 0] };
requests.forEach((request, i) => {
	if (i < from) return;
	const found = lib.searchTools(tools, request.request, 5, indexer).map((named) => named.qualifiedName);
	const accepted = [request.tool, ...(request.alternatives ?? [])];
	const hit = found.some((name) => accepted.includes(name));
	for (const half of ['all', i % 2 === 0 ? 'even' : 'odd']) {
		halves[half][0] += hit ? 1 : 0;
		halves[half][1]++;
	}
	if (!hit && args.includes('--misses'))
		console.log(`miss #${i} ${request.request} → ${request.tool}\n    got ${found.join(', ')}`);
});
for (const [half, [hits, total]] of Object.entries(halves))
	console.log(`${half.padEnd(4)} ${(hits / total).toFixed(3)} (${hits}/${total})`);
