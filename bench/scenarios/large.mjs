// One tools/call returning 10 MiB and 50 MiB of text over stdio: time of the call and peak RSS of the client
// process. Each measurement runs in a fresh child process per client, so memory numbers are clean.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLIENTS } from '../lib/clients.mjs';
import { interleave, median } from '../lib/stats.mjs';

export const name = 'large';

const CHILD = fileURLToPath(new URL('../lib/bigCallChild.mjs', import.meta.url));

function measureInChild(which, mib) {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[CHILD, which, String(mib)],
			{ timeout: 60_000, maxBuffer: 1 << 20 },
			(error, stdout) => {
				try {
					resolve(JSON.parse(stdout.trim().split('\n').pop()));
				} catch {
					resolve({ ok: false, error: error ? String(error.message).slice(0, 120) : 'no output' });
				}
			},
		);
	});
}

export async function run({ rounds }) {
	const rows = [];
	for (const mib of [10, 50]) {
		const failed = {};
		const results = await interleave(rounds, CLIENTS, async (which) => {
			// A client that failed once fails the same way again (e.g. the SDK's 10 MiB stdio message cap): skip it.
			if (failed[which]) return failed[which];
			const result = await measureInChild(which, mib);
			if (!result.ok) failed[which] = result;
			return result;
		});
		const value = (which, key) => {
			const ok = results[which].filter((r) => r.ok);
			return ok.length > 0 ? median(ok.map((r) => r[key])) : `fails (${results[which][0]?.error ?? '?'})`;
		};
		rows.push(
			{
				scenario: 'large',
				metric: `one tools/call returning ${mib} MiB, time`,
				unit: 'ms',
				target: '<= 1.5x',
				...Object.fromEntries(CLIENTS.map((c) => [c, value(c, 'ms')])),
			},
			{
				scenario: 'large',
				metric: `one tools/call returning ${mib} MiB, peak RSS`,
				unit: 'MiB',
				target: '<= 2x',
				...Object.fromEntries(CLIENTS.map((c) => [c, value(c, 'maxRssMiB')])),
			},
		);
	}
	return rows;
}
