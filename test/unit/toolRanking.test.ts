import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NamedTool } from '../../src/manager/types';
import {
	indexServerTools,
	MAX_MODEL_TOOLS,
	selectTools,
	tokenize,
	ToolIndex,
	ToolIndexer,
} from '../../src/manager/toolRanking';

function named(server: string, name: string, description?: string, title?: string): NamedTool {
	return {
		server,
		qualifiedName: `mcp__${server}__${name}`,
		tool: { name, description, title, inputSchema: { type: 'object' } },
	};
}

/** 1,000 look-alike tools plus a few with words a request would use. */
function catalog(): NamedTool[] {
	const tools: NamedTool[] = [];
	for (let i = 0; i < 1000; i++)
		tools.push(named(`srv${i % 10}`, `tool_${i}`, `Does generic thing number ${i} with records and items`));
	tools.push(named('weather', 'get_forecast', 'The weather forecast for a city for the next days', 'Weather forecast'));
	tools.push(named('github', 'createPullRequest', 'Opens a pull request on a GitHub repository'));
	tools.push(named('files', 'read-file', 'Reads a file from disk'));
	return tools;
}

test('tokenize splits names, camelCase and kebab-case, drops stop words, stems inflections (stems, compared alike on both sides)', () => {
	assert.deepEqual(tokenize('createPullRequest'), ['creat', 'pull', 'request']);
	assert.deepEqual(tokenize('get-tiny-image'), ['tiny', 'imag']);
	assert.deepEqual(tokenize('What is the weather in Paris? Forecasts please'), ['weather', 'pari', 'forecast']);
	assert.deepEqual(tokenize('mcp__files__read_file'), ['mcp', 'fil', 'read', 'fil']);
});

test('when the tools fit, every tool goes, in order', () => {
	const tools = catalog().slice(0, 50);
	const selection = selectTools(tools, { query: [{ text: 'anything', weight: 1 }] });
	assert.equal(selection.all, true);
	assert.equal(selection.leftOut, 0);
	assert.deepEqual(selection.tools, tools);
});

test('beyond the maximum: the tools matching the request are chosen, the count of the rest is reported', () => {
	const tools = catalog();
	const selection = selectTools(tools, {
		query: [{ text: 'What will the weather be like in Lisbon tomorrow?', weight: 1 }],
		maxTools: 5,
	});
	assert.equal(selection.tools.length, 5);
	assert.equal(selection.leftOut, tools.length - 5);
	assert.equal(selection.all, false);
	assert.ok(selection.tools.some((t) => t.qualifiedName === 'mcp__weather__get_forecast'));
	const pr = selectTools(tools, {
		query: [
			{ text: 'open a PR for my branch', weight: 1 },
			{ text: 'we talked about the github repository', weight: 0.5 },
		],
		maxTools: 3,
	});
	assert.ok(
		pr.tools.some((t) => t.qualifiedName === 'mcp__github__createPullRequest'),
		'the conversation counts too',
	);
});

test('the best match ranks first among look-alikes; order of the selection is configuration order', () => {
	const tools = catalog();
	const scores = ToolIndex.for(tools).score([{ text: 'read the file notes.txt', weight: 1 }]);
	const best = [...scores.keys()].sort((a, b) => scores[b]! - scores[a]!)[0]!;
	assert.equal(tools[best]?.qualifiedName, 'mcp__files__read-file');
	const selection = selectTools(tools, { query: [{ text: 'tool_7 and tool_3', weight: 1 }], maxTools: 10 });
	const indexes = selection.tools.map((t) => tools.indexOf(t));
	assert.deepEqual(
		indexes,
		[...indexes].sort((a, b) => a - b),
	);
});

test('pinned tools always go, even when nothing in the request matches them', () => {
	const tools = catalog();
	const selection = selectTools(tools, {
		query: [{ text: 'weather', weight: 1 }],
		maxTools: 3,
		pinned: ['mcp__srv9__tool_999', 'mcp__github__*'],
	});
	const names = selection.tools.map((t) => t.qualifiedName);
	assert.ok(names.includes('mcp__srv9__tool_999'));
	assert.ok(names.includes('mcp__github__createPullRequest'));
	assert.ok(names.includes('mcp__weather__get_forecast'));
});

test('never more than 128, whatever the setting says; a definition budget is respected', () => {
	const tools = catalog();
	assert.equal(selectTools(tools, { query: [], maxTools: 500 }).tools.length, MAX_MODEL_TOOLS);
	const budgeted = selectTools(tools, { query: [{ text: 'weather', weight: 1 }], maxDefinitionChars: 400 });
	const size = budgeted.tools.reduce(
		(sum, t) =>
			sum + t.qualifiedName.length + (t.tool.description?.length ?? 0) + JSON.stringify(t.tool.inputSchema).length,
		0,
	);
	assert.ok(size <= 400, `within the budget: ${size}`);
	assert.ok(
		budgeted.tools.some((t) => t.qualifiedName === 'mcp__weather__get_forecast'),
		'the best match is taken first',
	);
});

/** BM25 over the same words, written plainly: what the index's scores must equal. */
function referenceScores(tools: readonly NamedTool[], query: { text: string; weight: number }[]): number[] {
	const docs = tools.map((t) => {
		const counts = new Map<string, number>();
		const add = (text: string | undefined, weight: number) => {
			for (const token of tokenize(text ?? '')) counts.set(token, (counts.get(token) ?? 0) + weight);
		};
		add(t.tool.name, 3);
		add(t.server, 1);
		add(t.tool.title, 2);
		add(t.tool.description, 1);
		return counts;
	});
	const lengths = docs.map((counts) => [...counts.values()].reduce((a, b) => a + b, 0));
	const average = lengths.reduce((a, b) => a + b, 0) / docs.length;
	const terms = new Map<string, number>();
	for (const { text, weight } of query)
		for (const token of tokenize(text)) terms.set(token, Math.max(terms.get(token) ?? 0, weight));
	return docs.map((counts, i) => {
		let score = 0;
		for (const [term, weight] of terms) {
			const tf = counts.get(term);
			if (!tf) continue;
			const df = docs.filter((d) => d.has(term)).length;
			const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
			score += (weight * idf * (tf * 2.2)) / (tf + 1.2 * (0.25 + (0.75 * lengths[i]!) / average));
		}
		return score;
	});
}

test('the scores are plain BM25 over names (x3), titles (x2), servers and descriptions, for new tool objects and for copies alike', () => {
	const tools = catalog();
	tools.push(named('geo', 'İstanbulWeather', 'Weather for İstanbul and Ørsted and ÉCOLE districts', 'Über weather'));
	const query = [
		{ text: 'read the weather files for İstanbul', weight: 1 },
		{ text: 'records of the pull request', weight: 0.5 },
	];
	const expected = referenceScores(tools, query);
	const fresh = ToolIndex.for(tools).score(query);
	expected.forEach((score, i) => assert.ok(Math.abs(fresh[i]! - score) < 1e-9, `tool ${i}: ${fresh[i]} vs ${score}`));
	// New objects with the same texts (a restarted server) score the same, from the texts' cached words.
	const copies = tools.map((t) => ({ ...t, tool: { ...t.tool } }));
	assert.deepEqual([...ToolIndex.for(copies).score(query)], [...fresh]);
	assert.ok(fresh[tools.length - 1]! > 0, 'non-ASCII words are matched');
	assert.equal(
		ToolIndex.for(tools)
			.score([{ text: 'zzzunknownword', weight: 1 }])
			.every((s) => s === 0),
		true,
	);
});

test('a tool is found by a word that is only in its description', () => {
	const tools = catalog();
	tools.push(named('ops', 'run_job', 'Restarts the Kubernetes deployment and waits for its pods to be ready'));
	const selection = selectTools(tools, {
		query: [{ text: 'restart the kubernetes deployment', weight: 1 }],
		maxTools: 3,
	});
	assert.ok(
		selection.tools.some((t) => t.qualifiedName === 'mcp__ops__run_job'),
		selection.tools.map((t) => t.qualifiedName).join(', '),
	);
	const scores = ToolIndex.for(tools).score([{ text: 'kubernetes', weight: 1 }]);
	assert.deepEqual(
		[...scores.keys()].filter((i) => scores[i]! > 0),
		[tools.length - 1],
		'only that tool has the word',
	);
});

/** The tools of `tools` grouped by server, as each server's list arrives. */
function byServer(tools: readonly NamedTool[]): Map<string, NamedTool[]> {
	const servers = new Map<string, NamedTool[]>();
	for (const tool of tools) servers.set(tool.server, [...(servers.get(tool.server) ?? []), tool]);
	return servers;
}

test('indexes built per server when lists arrive give the same BM25 scores, for all tools and for the enabled few', () => {
	const tools = catalog();
	const indexer = new ToolIndexer();
	for (const [server, list] of byServer(tools)) indexer.update(server, list);
	const query = [
		{ text: 'read the weather file for the pull request', weight: 1 },
		{ text: 'records', weight: 0.5 },
	];
	const all = new ToolIndex(tools, indexer).score(query);
	referenceScores(tools, query).forEach((score, i) =>
		assert.ok(Math.abs(all[i]! - score) < 1e-9, `tool ${i}: ${all[i]} vs ${score}`),
	);
	// Some tools disabled: document frequencies and lengths are those of the enabled tools only.
	const enabled = tools.filter((_, i) => i % 3 !== 0);
	const some = new ToolIndex(enabled, indexer).score(query);
	referenceScores(enabled, query).forEach((score, i) =>
		assert.ok(Math.abs(some[i]! - score) < 1e-9, `enabled tool ${i}: ${some[i]} vs ${score}`),
	);
	// A tool no server index holds (its server's new list not indexed yet) is read on the spot, scored alike.
	const late = named('late', 'fetch_weather', 'Weather of a city');
	const mixed = [...enabled, late];
	const mixedScores = new ToolIndex(mixed, indexer).score(query);
	referenceScores(mixed, query).forEach((score, i) =>
		assert.ok(Math.abs(mixedScores[i]! - score) < 1e-9, `mixed tool ${i}`),
	);
});

test("a server's index is rebuilt only when that server's list changes (indexServerTools, off the request path)", async () => {
	const lists = new Map<string, NamedTool[]>([
		['weather', [named('weather', 'get_forecast', 'The weather forecast for a city')]],
		['files', [named('files', 'read-file', 'Reads a file from disk')]],
	]);
	const listeners: ((event: { server: string }) => void)[] = [];
	const source = {
		onDidChangeLists: (listener: (event: { server: string }) => void) => (
			listeners.push(listener),
			{ dispose: () => undefined }
		),
		onDidChangeServers: () => ({ dispose: () => undefined }),
		servers: () => [...lists].map(([name, tools]) => ({ name, tools })),
		get: (name: string) => (lists.has(name) ? { tools: lists.get(name)! } : undefined),
	};
	const indexer = new ToolIndexer();
	const indexing = indexServerTools(source, indexer);
	try {
		const weather = lists.get('weather')![0]!;
		const file = lists.get('files')![0]!;
		assert.equal(indexer.find(weather), undefined, 'nothing is read while the list event is handled');
		await new Promise((resolve) => setTimeout(resolve, 5));
		const weatherTerms = indexer.find(weather);
		const filesTerms = indexer.find(file);
		assert.ok(weatherTerms && filesTerms, 'both servers indexed after the event');
		const renamed = named('files', 'write-file', 'Writes a file to disk');
		lists.set('files', [renamed]);
		for (const listener of listeners) listener({ server: 'files' });
		await new Promise((resolve) => setTimeout(resolve, 5));
		assert.equal(indexer.find(weather), weatherTerms, 'the unchanged server keeps its index');
		assert.ok(indexer.find(renamed), "the changed server's new list is indexed");
		assert.equal(indexer.find(file), undefined, 'its old tools are gone');
	} finally {
		indexing.dispose();
	}
});

test('a server whose kept listing nobody has read is not indexed (that would read it); a request ranks its tools anyway', async () => {
	const cached = [
		named('weather', 'get_alerts', 'Storm and flood alerts for a region'),
		named('weather', 'get_forecast', 'The weather forecast for a city'),
	];
	let reads = 0;
	const view = {
		listsRead: false,
		get tools() {
			reads++;
			return cached;
		},
	};
	const source = {
		onDidChangeLists: () => ({ dispose: () => undefined }),
		onDidChangeServers: () => ({ dispose: () => undefined }),
		servers: () => [{ name: 'weather', tools: [] }],
		get: (name: string) => (name === 'weather' ? view : undefined),
	};
	const indexer = new ToolIndexer();
	const indexing = indexServerTools(source, indexer);
	try {
		await new Promise((resolve) => setTimeout(resolve, 5));
		assert.equal(reads, 0, 'the listing was not read at start');
		assert.equal(indexer.find(cached[0]!), undefined);
		const picked = selectTools(
			cached,
			{ query: [{ text: 'what is the forecast in Paris', weight: 1 }], maxTools: 1 },
			indexer,
		);
		assert.deepEqual(
			picked.tools.map((tool) => tool.qualifiedName),
			['mcp__weather__get_forecast'],
		);
	} finally {
		indexing.dispose();
	}
});
