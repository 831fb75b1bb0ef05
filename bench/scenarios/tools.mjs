// tools/list of 1,000 tools, each with an outputSchema, then one call of one of them (the first call is where
// a lazy client builds that tool's validator). A fresh connection per client and round.
import { CLIENTS, connectClient } from '../lib/clients.mjs';
import { interleave, median } from '../lib/stats.mjs';

export const name = 'tools';

const TOOLS = 1000;

export async function run({ rounds }) {
	const results = await interleave(rounds, CLIENTS, async (which) => {
		const client = await connectClient(which, ['--tools', String(TOOLS)]);
		try {
			await client.callTool('echo', { text: 'warm' });
			let start = performance.now();
			const tools = await client.listTools();
			const list = performance.now() - start;
			if (tools.length !== TOOLS + 2) throw new Error(`${which}: listed ${tools.length} tools`);
			start = performance.now();
			const result = await client.callTool('tool500', { q: 'x' });
			const call = performance.now() - start;
			if (result.structuredContent?.id !== 500) throw new Error(`${which}: wrong structured result`);
			return { list, call };
		} finally {
			await client.close();
		}
	});
	const pick = (key) => Object.fromEntries(CLIENTS.map((c) => [c, median(results[c].map((r) => r[key]))]));
	return [
		{
			scenario: 'tools',
			metric: `tools/list, ${TOOLS} tools with outputSchema`,
			unit: 'ms',
			target: '<= 2x',
			...pick('list'),
		},
		{ scenario: 'tools', metric: 'then the first call of one of them', unit: 'ms', ...pick('call') },
	];
}
