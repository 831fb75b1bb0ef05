// `npm run bench` (after `node esbuild.mjs`): runs every scenario in bench/scenarios/*.mjs and prints one table of
// medians with ratios to the floor, also written to .bench/results.json (ignored by git).
//   node bench/run.mjs [--rounds N] [name-filter ...]     (default 5 rounds, every scenario)
//
// Scenario contract (bench/scenarios/<name>.mjs), so other parts (HTTP, Manager) can add their own:
//   export const name: string
//   export async function run({ rounds }): Promise<Row[]>
//   Row = {
//     scenario: string, metric: string, unit: string,   // e.g. 'stdio', 'sequential tools/call echo p50', 'µs'
//     floor, ours, sdk: number | string,                 // the median over >= `rounds` interleaved rounds, or a
//                                                        // string such as 'fails (…)' when a client cannot do it
//     plainFloor?: number,                               // a second reference, shown with its own ratio (stdio: the
//                                                        // floor spawned plainly, where `floor` spawns as we do)
//     lowerIsBetter?: boolean,                           // default true; false for throughput (calls/s)
//     ratio?: number,                                    // the ours/floor column, when not the ratio of the two
//                                                        // medians: e.g. the median of per-round ratios, for rounds
//                                                        // where floor and ours ran back to back (already "times
//                                                        // worse", as the column is)
//     target?: string,                                   // shown as is, e.g. '<= 1.1x'
//   }
// Ratios are printed as "times worse than the floor" whichever way the unit goes: ours/floor for times and sizes,
// floor/ours for throughput. Run clients interleaved (lib/stats.mjs `interleave`) against a server that costs the
// same for every client (bench/servers/), and connect through lib/clients.mjs.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const roundsIndex = args.indexOf('--rounds');
const rounds = roundsIndex === -1 ? 5 : Number(args[roundsIndex + 1]);
const filters = args.filter((a, i) => !a.startsWith('--') && (roundsIndex === -1 || i !== roundsIndex + 1));
const dir = fileURLToPath(new URL('./scenarios/', import.meta.url));
const files = readdirSync(dir)
	.filter((f) => f.endsWith('.mjs'))
	.sort()
	.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));

const format = (value) => {
	if (typeof value !== 'number') return value === undefined ? '-' : String(value);
	if (value >= 1000) return Math.round(value).toLocaleString('en-US');
	return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
};
const ratio = (row, value, reference = row.floor) => {
	if (typeof value !== 'number' || typeof reference !== 'number' || value === 0 || reference === 0) return '-';
	return `${(row.lowerIsBetter === false ? reference / value : value / reference).toFixed(2)}x`;
};

const started = performance.now();
const rows = [];
for (const file of files) {
	const scenario = await import(new URL(`./scenarios/${file}`, import.meta.url));
	const t = performance.now();
	process.stderr.write(`bench: ${scenario.name} …`);
	try {
		// The 1-minute load average when the scenario ended, next to its figures: on a shared machine it says how much to trust them.
		const scenarioRows = await scenario.run({ rounds });
		const load = loadavg()[0];
		rows.push(...scenarioRows.map((row) => ({ ...row, load })));
		process.stderr.write(` ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
	} catch (error) {
		process.stderr.write(` failed: ${error?.stack ?? error}\n`);
		rows.push({ scenario: scenario.name, metric: 'failed', unit: '', floor: String(error?.message ?? error) });
	}
}

// The second reference's columns only when a row has one.
const plain = rows.some((row) => row.plainFloor !== undefined);
const header = [
	'scenario',
	'metric',
	'unit',
	'floor',
	...(plain ? ['plain floor'] : []),
	'ours',
	'sdk',
	'ours/floor',
	'sdk/floor',
	...(plain ? ['ours/plain', 'sdk/plain'] : []),
	'target',
	'load',
];
const table = rows.map((row) => [
	row.scenario,
	row.metric,
	row.unit,
	format(row.floor),
	...(plain ? [format(row.plainFloor)] : []),
	format(row.ours),
	format(row.sdk),
	typeof row.ratio === 'number' ? `${row.ratio.toFixed(2)}x` : ratio(row, row.ours),
	ratio(row, row.sdk),
	// Only rows that have a second reference get its ratios (ratio() would fall back to the floor for undefined).
	...(plain
		? row.plainFloor === undefined
			? ['-', '-']
			: [ratio(row, row.ours, row.plainFloor), ratio(row, row.sdk, row.plainFloor)]
		: []),
	row.target ?? '',
	row.load === undefined ? '' : row.load.toFixed(1),
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => String(r[i]).length)));
const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
console.log(
	`\nMedians of ${rounds} interleaved rounds; Node ${process.version}; ${new Date().toISOString()}; load average ${loadavg()
		.map((x) => x.toFixed(1))
		.join(' ')} (1/5/15 min) at the end\n`,
);
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of table) console.log(line(r));
console.log(`\n(total ${((performance.now() - started) / 1000).toFixed(0)} s)`);

const out = fileURLToPath(new URL('../.bench/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(
	`${out}results.json`,
	`${JSON.stringify({ date: new Date().toISOString(), node: process.version, loadavg: loadavg(), rounds, rows }, null, '\t')}\n`,
);
