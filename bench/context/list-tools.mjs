// Lists the tools of real MCP servers into bench/context/catalogue.json, the fixed catalogue of the `context` bench.
// Each server is started over stdio from an npm package installed in a folder of its own (never this repository's
// node_modules), with placeholder credentials where it needs some to start (none of its tools is called), and asked
// `initialize` + `tools/list` (every page). What each definition came from is written beside it.
//   mkdir /tmp/mcpcat && cd /tmp/mcpcat && npm install --ignore-scripts <packages below>
//   node bench/context/list-tools.mjs /tmp/mcpcat
//   node bench/context/import-toolsnaps.mjs <github-mcp-server checkout> <commit>
// Tried and left out (no tools/list here): server-redis and stripe (they need their service to answer),
// desktop-commander (no answer within 30 s on this machine).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = join(here, '../..');
const folder = process.argv[2] ?? '/tmp/mcpcat';

/** name, package, the script to run (relative to the package), its arguments and environment. */
const SERVERS = [
	{ name: 'everything', pkg: '@modelcontextprotocol/server-everything', root: repo, args: ['stdio'] },
	{ name: 'filesystem', pkg: '@modelcontextprotocol/server-filesystem', root: repo, args: [repo] },
	{ name: 'memory', pkg: '@modelcontextprotocol/server-memory' },
	{ name: 'sequential-thinking', pkg: '@modelcontextprotocol/server-sequential-thinking' },
	{ name: 'github', pkg: '@modelcontextprotocol/server-github', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'placeholder' } },
	{ name: 'gitlab', pkg: '@modelcontextprotocol/server-gitlab', env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'placeholder' } },
	{
		name: 'slack',
		pkg: '@modelcontextprotocol/server-slack',
		env: { SLACK_BOT_TOKEN: 'xoxb-placeholder', SLACK_TEAM_ID: 'T0' },
	},
	{ name: 'google-maps', pkg: '@modelcontextprotocol/server-google-maps', env: { GOOGLE_MAPS_API_KEY: 'placeholder' } },
	{ name: 'brave-search', pkg: '@modelcontextprotocol/server-brave-search', env: { BRAVE_API_KEY: 'placeholder' } },
	{ name: 'postgres', pkg: '@modelcontextprotocol/server-postgres', args: ['postgresql://127.0.0.1:1/none'] },
	{ name: 'playwright', pkg: '@playwright/mcp' },
	{ name: 'notion', pkg: '@notionhq/notion-mcp-server', env: { NOTION_TOKEN: 'placeholder' } },
	{ name: 'context7', pkg: '@upstash/context7-mcp' },
	{ name: 'firecrawl', pkg: 'firecrawl-mcp', env: { FIRECRAWL_API_KEY: 'fc-placeholder' } },
	{ name: 'tavily', pkg: 'tavily-mcp', env: { TAVILY_API_KEY: 'tvly-placeholder' } },
	{ name: 'airtable', pkg: 'airtable-mcp-server', env: { AIRTABLE_API_KEY: 'pat-placeholder' } },
];

/** The package's command-line entry (its `bin`, the first one when several). */
function entry(root, pkg) {
	const manifest = JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8'));
	const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
	return { script: join(root, 'node_modules', pkg, bin ?? manifest.main), version: manifest.version };
}

/** Starts one server and lists its tools; rejects after 30 s or when it exits first. */
function list(server) {
	const root = server.root ?? folder;
	const { script, version } = entry(root, server.pkg);
	const child = spawn(process.execPath, [script, ...(server.args ?? [])], {
		cwd: root,
		env: { PATH: process.env.PATH, HOME: process.env.HOME, ...server.env },
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
	const pending = new Map();
	let buffer = '';
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (chunk) => {
		buffer += chunk;
		let newline;
		while ((newline = buffer.indexOf('\n')) >= 0) {
			const line = buffer.slice(0, newline).trim();
			buffer = buffer.slice(newline + 1);
			if (!line.startsWith('{')) continue;
			const message = JSON.parse(line);
			if (message.id !== undefined && pending.has(message.id)) pending.get(message.id)(message);
			else if (message.id !== undefined && message.method)
				child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} })}\n`);
		}
	});
	let next = 1;
	const request = (method, params) =>
		new Promise((resolve, reject) => {
			const id = next++;
			pending.set(id, (message) =>
				message.error ? reject(new Error(message.error.message)) : resolve(message.result),
			);
			child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
		});
	const run = (async () => {
		const init = await request('initialize', {
			protocolVersion: '2025-06-18',
			capabilities: { roots: {}, sampling: {}, elicitation: {} },
			clientInfo: { name: 'switchboard-catalogue', version: '1' },
		});
		child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
		const tools = [];
		let cursor;
		do {
			const page = await request('tools/list', cursor ? { cursor } : {});
			tools.push(...page.tools);
			cursor = page.nextCursor;
		} while (cursor);
		return { init, tools };
	})();
	const exited = new Promise((_, reject) =>
		child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`))),
	);
	const timeout = new Promise((_, reject) =>
		setTimeout(() => reject(new Error(`no answer in 30 s: ${stderr}`)), 30_000),
	);
	return Promise.race([run, exited, timeout])
		.then(({ init, tools }) => ({ version, serverInfo: init.serverInfo, tools }))
		.finally(() => child.kill());
}

const servers = [];
for (const server of SERVERS) {
	try {
		const listed = await list(server);
		servers.push({
			name: server.name,
			source:
				`npm ${server.pkg}@${listed.version}, listed over stdio (initialize + tools/list) as ${listed.serverInfo?.name ?? '?'} ${listed.serverInfo?.version ?? ''}`.trim(),
			tools: listed.tools.map(({ name, title, description, inputSchema, annotations }) => ({
				name,
				...(title ? { title } : {}),
				description: description ?? '',
				inputSchema,
				...(annotations ? { annotations } : {}),
			})),
		});
		console.error(`${server.name}: ${listed.tools.length} tools`);
	} catch (error) {
		console.error(`${server.name}: skipped (${String(error.message ?? error).split('\n')[0]})`);
	}
}
const out = join(here, 'catalogue.json');
writeFileSync(out, `${JSON.stringify({ listedOn: new Date().toISOString().slice(0, 10), servers }, null, '\t')}\n`);
console.error(`${servers.length} servers, ${servers.reduce((n, s) => n + s.tools.length, 0)} tools → ${out}`);
