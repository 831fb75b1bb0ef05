// @mcp's tool selection among 5,000 tools (src/manager/toolRanking.ts), in three parts: the request's part with the
// servers' indexes built (they are built when each server's tools/list arrives, off the request's path), that build
// for 5,000 never-seen tools, and the cold total (a request that arrives before any index: it builds and selects).
// No reference implementation to compare with: the target is absolute (< 20 ms), so the load average matters.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { median } from '../lib/stats.mjs';

export const name = 'selection';

const SELECTION_TOOLS = 5000;
const SELECTION_RUNS = 30;
const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));

async function bundle() {
	const outfile = `${root}.bench/selection-bundle.cjs`;
	await esbuild.build({
		entryPoints: [`${root}src/manager/toolRanking.ts`],
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		outfile,
		logLevel: 'warning',
	});
	return require(outfile);
}

/** 5,000 tools with descriptions drawn from a vocabulary, like many servers' tools side by side; `variant` changes every text. */
function syntheticTools(variant = 0) {
	const words =
		'file read write list search issue pull request branch commit repository deploy build test log metric alert query table row column database user team project ticket comment label image render page browser click screenshot weather forecast city calendar event meeting email message send channel slack note document folder upload download archive compress secret token cluster pod service container'.split(
			' ',
		);
	let seed = 42 + variant;
	const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const pick = () => words[Math.floor(random() * words.length)];
	const tools = [];
	for (let i = 0; i < SELECTION_TOOLS; i++) {
		const server = `server${i % 50}`;
		const toolName = `${pick()}_${pick()}_${i}${variant ? `_v${variant}` : ''}`;
		const description = Array.from({ length: 12 }, pick).join(' ');
		tools.push({
			server,
			qualifiedName: `mcp__${server}__${toolName}`,
			tool: { name: toolName, description, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
		});
	}
	return tools;
}

/** The tools of `list` by server, as the servers' lists arrive. */
function byServer(list) {
	const servers = new Map();
	for (const tool of list) {
		if (!servers.has(tool.server)) servers.set(tool.server, []);
		servers.get(tool.server).push(tool);
	}
	return servers;
}

function selection({ selectTools, ToolIndexer }) {
	// As @mcp asks: the enabled tools (a new array per request), a definition budget from the model's input tokens.
	const request = {
		query: [
			{ text: 'Find the open pull request for the deploy branch and post a comment with the build log', weight: 1 },
			{ text: 'we looked at the failing test in the repository earlier', weight: 0.5 },
		],
		maxDefinitionChars: 128_000,
	};
	const check = (result) => {
		if (result.tools.length !== 128) throw new Error(`selected ${result.tools.length} tools, expected 128`);
	};
	const samples = { built: [], build: [], cold: [] };
	const tools = syntheticTools();
	const indexer = new ToolIndexer();
	for (const [server, list] of byServer(tools)) indexer.update(server, list);
	check(selectTools([...tools], request, indexer));
	for (let i = 0; i < SELECTION_RUNS; i++) {
		// The request's path: every server's index built, a new array of the enabled tools.
		const enabled = [...tools];
		let start = performance.now();
		check(selectTools(enabled, request, indexer));
		samples.built.push(performance.now() - start);
		// The build: tools and texts never seen (a new variant each run: new names, descriptions, words), 50 servers'
		// lists of 100 tools each arriving.
		const fresh = byServer(syntheticTools(++variants));
		const builder = new ToolIndexer();
		start = performance.now();
		for (const [server, list] of fresh) builder.update(server, list);
		samples.build.push(performance.now() - start);
		// Cold total: a request among never-seen tools before any index was built (it reads every tool, then selects).
		const never = syntheticTools(++variants);
		start = performance.now();
		check(selectTools(never, request, new ToolIndexer()));
		samples.cold.push(performance.now() - start);
	}
	return { built: median(samples.built), build: median(samples.build), cold: median(samples.cold) };
}
let variants = 0;

export async function run({ rounds }) {
	const ranking = await bundle();
	const selections = [];
	for (let round = 0; round < rounds; round++) selections.push(selection(ranking));
	return [
		{
			scenario: 'selection',
			metric: `select among ${SELECTION_TOOLS} tools for a request, the servers' indexes already built`,
			unit: 'ms',
			floor: '-',
			ours: median(selections.map((s) => s.built)),
			sdk: '-',
			target: '< 20 ms',
		},
		{
			scenario: 'selection',
			metric: `  index build for ${SELECTION_TOOLS} never-seen tools (50 servers' lists arriving; off the request's path)`,
			unit: 'ms',
			floor: '-',
			ours: median(selections.map((s) => s.build)),
			sdk: '-',
		},
		{
			scenario: 'selection',
			metric: `  cold total: a request among ${SELECTION_TOOLS} never-seen tools before any index (build + select)`,
			unit: 'ms',
			floor: '-',
			ours: median(selections.map((s) => s.cold)),
			sdk: '-',
			target: '< 20 ms',
		},
	];
}
