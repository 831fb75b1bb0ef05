// The model's context as a budget (src/manager/context/), over a fixed catalogue of real tool definitions
// (bench/context/catalogue.json: listed from real servers, each with where it came from) and natural-language
// requests, each labelled with the tool a person would pick (bench/context/requests.json):
// - tokens of tool definitions a request puts into the context without tool search (every definition) and with it
//   (search_tools' definition, the search's answer with its matches' full definitions, and those matches offered
//   as tools for the call), estimated as src/manager/context/tokens.ts does;
// - recall@5: how often the labelled tool is among the search's five matches for the request as the user wrote it;
// - search time per query over 5,000 tools (the catalogue's servers repeated under other names), indexes built as
//   each server's list arrives.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { median } from '../lib/stats.mjs';

export const name = 'context';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));
const SEARCH_TOOLS = 5000;

/** The tool search, token estimate and ranking code, bundled from the sources (also used by context/recall.mjs). */
export async function bundle() {
	const outfile = `${root}.bench/context-bundle.cjs`;
	await esbuild.build({
		stdin: {
			contents: `export * from './src/manager/context/toolSearch'; export * from './src/manager/context/tokens'; export { ToolIndexer } from './src/manager/toolRanking';`,
			resolveDir: root,
			loader: 'ts',
		},
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		outfile,
		logLevel: 'warning',
	});
	return require(outfile);
}

/** The catalogue as the Manager names tools, and the labelled requests. */
export function loadCatalogue() {
	const catalogue = JSON.parse(readFileSync(`${root}bench/context/catalogue.json`, 'utf8'));
	const requests = JSON.parse(readFileSync(`${root}bench/context/requests.json`, 'utf8')).requests;
	const tools = catalogue.servers.flatMap((server) =>
		server.tools.map((tool) => ({ server: server.name, qualifiedName: `mcp__${server.name}__${tool.name}`, tool })),
	);
	return { servers: catalogue.servers, tools, requests };
}

/** The tokens of a definition as the model gets it (its qualified name). */
function tokensOf(lib, named) {
	return lib.definitionTokens({
		name: named.qualifiedName,
		description: named.tool.description,
		inputSchema: named.tool.inputSchema,
	});
}

export async function run({ rounds }) {
	const lib = await bundle();
	const { servers, tools, requests } = loadCatalogue();
	const byName = new Map(tools.map((named) => [named.qualifiedName, named]));
	for (const request of requests)
		for (const tool of [request.tool, ...(request.alternatives ?? [])])
			if (!byName.has(tool)) throw new Error(`requests.json: no tool ${tool} in the catalogue`);
	const indexer = new lib.ToolIndexer();
	for (const server of servers)
		indexer.update(
			server.name,
			tools.filter((named) => named.server === server.name),
		);

	// Tokens and recall, per request, the request's own words as the query.
	const without = tools.reduce((sum, named) => sum + tokensOf(lib, named), 0);
	const searchDefinition = lib.definitionTokens(lib.SEARCH_TOOLS_DEFINITION);
	const withSearch = [];
	let hits = 0;
	const misses = [];
	for (const request of requests) {
		const found = lib.searchTools(tools, request.request, 5, indexer);
		const answer = lib.estimateTokens(lib.searchAnswer(found, request.request));
		withSearch.push(searchDefinition + answer + found.reduce((sum, named) => sum + tokensOf(lib, named), 0));
		const accepted = new Set([request.tool, ...(request.alternatives ?? [])]);
		if (found.some((named) => accepted.has(named.qualifiedName))) hits++;
		else misses.push(`${request.request} → ${request.tool} (got ${found.map((n) => n.qualifiedName).join(', ')})`);
	}
	if (process.env.CONTEXT_BENCH_MISSES) for (const miss of misses) process.stderr.write(`\nmiss: ${miss}`);
	const recall = hits / requests.length;
	const perRequest = median(withSearch);

	// Search time over 5,000 tools: the catalogue's servers again and again under new names.
	const many = [];
	const manyIndexer = new lib.ToolIndexer();
	for (let copy = 0; many.length < SEARCH_TOOLS; copy++) {
		for (const server of servers) {
			const name = `${server.name}-${copy}`;
			const list = server.tools.map((tool) => ({ server: name, qualifiedName: `mcp__${name}__${tool.name}`, tool }));
			manyIndexer.update(name, list);
			many.push(...list);
		}
	}
	const enabled = many.slice(0, SEARCH_TOOLS);
	const times = [];
	for (let round = 0; round < rounds; round++) {
		for (const request of requests) {
			const start = performance.now();
			lib.searchTools(enabled, request.request, 5, manyIndexer);
			times.push(performance.now() - start);
		}
	}
	const scenario = 'context';
	const label = `${tools.length} tools of ${servers.length} servers, ${requests.length} requests`;
	return [
		{
			scenario,
			metric: `definition tokens per request without tool search (${label})`,
			unit: 'tokens',
			floor: '-',
			ours: without,
			sdk: '-',
		},
		{
			scenario,
			metric: '  with tool search (search_tools, its answer, the 5 matches offered), median',
			unit: 'tokens',
			floor: '-',
			ours: perRequest,
			sdk: '-',
		},
		{
			scenario,
			metric: '  fewer tokens with tool search (without / with)',
			unit: 'x',
			floor: '-',
			ours: without / perRequest,
			sdk: '-',
			lowerIsBetter: false,
			target: '>= 10x',
		},
		{
			scenario,
			metric: `recall@5 of search_tools for the requests as written (${hits}/${requests.length})`,
			unit: '',
			floor: '-',
			ours: recall,
			sdk: '-',
			lowerIsBetter: false,
			target: '>= 0.9',
		},
		{
			scenario,
			metric: `search time per query over ${enabled.length} tools (indexes built as lists arrive), median`,
			unit: 'ms',
			floor: '-',
			ours: median(times),
			sdk: '-',
			target: '< 5 ms',
		},
	];
}
