// Add Server's suggested names (#34.9): the package, module, image, script folder or host, never "3", "index", "0".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitCommandLine, suggestName, uniqueName } from '../../src/manager/serverNames';

test('a suggested name is what the command or URL runs, as a person would name it', () => {
	const cases: [string, string][] = [
		['npx -y @modelcontextprotocol/server-everything', 'everything'],
		['npx -y @modelcontextprotocol/server-filesystem /home/me/projects', 'filesystem'],
		['npx -y @modelcontextprotocol/server-everything@3', 'everything'],
		['npx @playwright/mcp@latest', 'playwright'],
		['uvx mcp-server-fetch', 'fetch'],
		['python3 -m mcp_server_time --local-timezone=Europe/Paris', 'time'],
		['uv run --with mcp weather.py', 'weather'],
		['node /home/me/weather-server/dist/index.js', 'weather'],
		['node index.js', 'node-server'],
		['python3 server.py 3', 'python3-server'],
		['docker run -i --rm -e GITHUB_TOKEN=3 ghcr.io/github/github-mcp-server:latest', 'github'],
		['docker run -i --rm mcp/time', 'time'],
		['/opt/tools/my-tool --stdio', 'my-tool'],
		['https://mcp.notion.com/mcp', 'notion'],
		['https://api.githubcopilot.com/mcp/', 'githubcopilot'],
		['http://localhost:3001/mcp', 'localhost-3001'],
		['http://127.0.0.1:8000/sse', 'localhost-8000'],
		['http://127.0.0.1:8080/weather/mcp', 'weather'],
	];
	for (const [input, name] of cases) assert.equal(suggestName(input), name, input);
});

test('never a bare number or a generic word', () => {
	for (const input of ['3', 'node 0', 'http://10.0.0.3/', 'index', 'npx -y 7', 'python3 main.py']) {
		const name = suggestName(input);
		assert.doesNotMatch(name, /^\d+$/, `${input} → ${name}`);
		assert.ok(!['index', 'main', 'server', '0', '3'].includes(name), `${input} → ${name}`);
	}
});

test('a name already taken gets a number after it', () => {
	const taken = new Set(['time', 'time-2']);
	assert.equal(
		uniqueName('time', (n) => taken.has(n)),
		'time-3',
	);
	assert.equal(
		uniqueName('fetch', (n) => taken.has(n)),
		'fetch',
	);
	assert.deepEqual(splitCommandLine(`node "my dir/x.js" 'a b' c\\ d`), ['node', 'my dir/x.js', 'a b', 'c d']);
});
