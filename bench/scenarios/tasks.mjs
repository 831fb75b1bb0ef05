// 100 tool calls at once against the task fixture server (test/fixtures/servers/taskServer.js, tool `work`: 1 s of
// work), once as plain calls (the reference, "floor") and once as tasks (ours: task-augmented tools/call, tasks/get
// polling at the server's pollInterval of 100 ms, tasks/result). The ratio is what following a task costs over a
// plain call of the same tool: wall time, this process's CPU per call, requests sent per second and per call. The
// last row counts the tasks/get sent in the second after every task ended: polling must stop with the last task.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/stats.mjs';

export const name = 'tasks';

const require = createRequire(import.meta.url);
const TASK_SERVER = fileURLToPath(new URL('../../test/fixtures/servers/taskServer.js', import.meta.url));
const CALLS = 100;
const WORK = { ms: 1000, steps: 1, pollInterval: 100 };

async function connect() {
	const core = require('../../dist/core.js');
	const client = await core.connect(
		{ type: 'stdio', command: process.execPath, args: [TASK_SERVER] },
		{ name: 'tasks-bench' },
	);
	await client.listTools();
	return client;
}

/** Total tasks/get the server answered so far (its `stats` tool). */
async function polls(client) {
	const stats = JSON.parse((await client.callTool('stats', {})).content[0].text);
	return Object.values(stats).reduce((sum, task) => sum + task.gets, 0);
}

async function measure(asTask) {
	const client = await connect();
	try {
		await client.callTool('work', { ms: 1, steps: 1 }, { task: asTask }); // warm both paths
		const before = await polls(client);
		const cpu = process.cpuUsage();
		const start = performance.now();
		const results = await Promise.all(
			Array.from({ length: CALLS }, () => client.callTool('work', WORK, { task: asTask })),
		);
		const wall = performance.now() - start;
		const used = process.cpuUsage(cpu);
		if (!results.every((r) => r.content[0]?.text === 'worked 1000 ms'))
			throw new Error('a call returned the wrong result');
		const gets = (await polls(client)) - before;
		// Requests this client sent for the calls: one tools/call each, plus (as tasks) every tasks/get and one tasks/result each.
		const requests = CALLS + (asTask ? gets + CALLS : 0);
		await new Promise((resolve) => setTimeout(resolve, 1000));
		const idleGets = (await polls(client)) - before - gets;
		if (client.liveTasks.length !== 0) throw new Error(`${client.liveTasks.length} tasks still followed`);
		return {
			wall,
			cpu: (used.user + used.system) / CALLS,
			cpuPerRequest: (used.user + used.system) / requests,
			rate: requests / (wall / 1000),
			perCall: requests / CALLS,
			idleGets,
		};
	} finally {
		await client.close();
	}
}

export async function run({ rounds }) {
	const plain = [];
	const tasks = [];
	for (let round = 0; round < rounds; round++) {
		// Alternate which goes first, as the other scenarios' interleave does.
		if (round % 2 === 0) {
			plain.push(await measure(false));
			tasks.push(await measure(true));
		} else {
			tasks.push(await measure(true));
			plain.push(await measure(false));
		}
	}
	const pick = (key) => ({
		floor: median(plain.map((r) => r[key])),
		ours: median(tasks.map((r) => r[key])),
		sdk: 'n/a (no client tasks)',
	});
	return [
		{
			scenario: 'tasks',
			metric: `${CALLS} concurrent calls of a 1 s tool, plain (floor) vs as tasks (ours): wall time`,
			unit: 'ms',
			target: '<= 1.2x',
			...pick('wall'),
		},
		{ scenario: 'tasks', metric: 'client CPU per call (polling included)', unit: 'µs', ...pick('cpu') },
		{
			scenario: 'tasks',
			metric: 'client CPU per request sent (plain calls go out and come back in one batch)',
			unit: 'µs',
			...pick('cpuPerRequest'),
		},
		{ scenario: 'tasks', metric: 'requests sent per second (pollInterval 100 ms)', unit: 'req/s', ...pick('rate') },
		{ scenario: 'tasks', metric: 'requests sent per call', unit: 'count', ...pick('perCall') },
		{
			scenario: 'tasks',
			metric: 'tasks/get sent in the 1 s after the last task ended',
			unit: 'count',
			target: '0',
			...pick('idleGets'),
		},
	];
}
