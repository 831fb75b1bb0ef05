// Adds the GitHub MCP server's published tool definitions to bench/context/catalogue.json: github/github-mcp-server
// keeps each tool's definition as a JSON snapshot (pkg/github/__toolsnaps__/<tool>.snap), the same JSON its
// tools/list answers. Run with a checkout of that repository:
//   node bench/context/import-toolsnaps.mjs <checkout> <commit>
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [checkout, commit] = process.argv.slice(2);
const here = fileURLToPath(new URL('.', import.meta.url));
const out = join(here, 'catalogue.json');
const catalogue = JSON.parse(readFileSync(out, 'utf8'));
const folder = join(checkout, 'pkg/github/__toolsnaps__');
const tools = readdirSync(folder)
	.filter((file) => file.endsWith('.snap'))
	.sort()
	.map((file) => {
		const { name, description, inputSchema, annotations } = JSON.parse(readFileSync(join(folder, file), 'utf8'));
		return { name, description: description ?? '', inputSchema, ...(annotations ? { annotations } : {}) };
	});
catalogue.servers = catalogue.servers.filter((server) => server.name !== 'github-official');
catalogue.servers.push({
	name: 'github-official',
	source: `github/github-mcp-server at ${commit}, pkg/github/__toolsnaps__/*.snap (the definitions its tools/list serves)`,
	tools,
});
writeFileSync(out, `${JSON.stringify(catalogue, null, '\t')}\n`);
console.error(`github-official: ${tools.length} tools`);
