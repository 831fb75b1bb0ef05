// Activation in the real VS Code (#28): windows of code-server 4.139.1 (VS Code 1.139.1) with MCP Switchboard
// installed, one profile with no servers configured and one with fifty (the bench server, each its own identity),
// every server listed once in an earlier window. Each sample opens a new window (a new extension host) on one of the
// two and reads what the extension logs when the Servers view's rows are built (vscode/tree/firstRows.ts: activate()
// to the rows made as the view paints them first: the last window's when the configuration reads the same, else the
// Manager's once it is applied); then the extension host's memory
// and the processes it started. Samples alternate between the two profiles; the figures are medians.
// Targets: time <= 1.1x; no server process before the first need.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER } from '../lib/clients.mjs';
import { median } from '../lib/stats.mjs';
import { ensureVsCode } from '../../scripts/vscode-server.mjs';
import {
	extensionId,
	freePort,
	killTagged,
	launchChromium,
	newRunToken,
	registerInstalledExtensions,
	repoRoot,
	startCodeServer,
	waitHealthy,
	writeUserSettings,
} from '../../scripts/workbench.mjs';

export const name = 'hostActivation';

const SERVERS = 50;
const LINE =
	/(\d+) servers? shown (\d+) ms after activation began \((\d+) running, (\d+) from kept listings(; the last window's rows)?/;

/** The extension's main log files under a user-data folder, newest last. */
function mainLogs(userDataDir) {
	const found = [];
	const walk = (dir) => {
		if (!existsSync(dir)) return;
		for (const entry of readdirSync(dir)) {
			const path = join(dir, entry);
			if (statSync(path).isDirectory()) walk(path);
			else if (entry === 'MCP Switchboard.log') found.push(path);
		}
	};
	walk(join(userDataDir, 'logs'));
	return found.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

/** The pids of the extension hosts of the code-server run tagged with `token`. */
function extensionHosts(token) {
	const pids = [];
	for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
		try {
			const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
			if (cmdline.includes('extensionHost') && readFileSync(`/proc/${pid}/environ`, 'latin1').includes(token))
				pids.push(Number(pid));
		} catch {
			// Gone, or not ours.
		}
	}
	return pids;
}

/** Resident memory of `pid` in bytes. */
function rss(pid) {
	return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
}

const alive = (pid) => existsSync(`/proc/${pid}`);

/** Ends a window's extension host and what it started (code-server keeps a closed window's host for a reconnection). */
async function endHost(pid) {
	const children = childPids(pid);
	for (const target of [pid, ...children]) {
		try {
			process.kill(target, 'SIGTERM');
		} catch {
			// Already gone.
		}
	}
	const deadline = Date.now() + 10_000;
	while ([pid, ...children].some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
	for (const target of [pid, ...children].filter(alive)) process.kill(target, 'SIGKILL');
}

/** The live processes whose parent is `pid`. */
function childPids(pid) {
	const children = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
			if (Number(fields[1]) === pid) children.push(Number(name));
		} catch {
			// Ended while listing.
		}
	}
	return children;
}

async function until(what, predicate, timeoutMs = 120_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await predicate();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`hostActivation: timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** A profile: code-server on its own user data, `count` servers in the user settings. */
async function profile(root, label, count, browser) {
	const scratch = join(root, label);
	const workspace = join(scratch, 'workspace');
	mkdirSync(workspace, { recursive: true });
	const servers = Object.fromEntries(
		Array.from({ length: count }, (_, i) => [
			`s${i}`,
			{ command: process.execPath, args: [SERVER, '--tools', '20', '--id', String(i)] },
		]),
	);
	const userDataDir = join(scratch, 'user-data');
	const extensionsDir = join(scratch, 'extensions');
	registerInstalledExtensions(extensionsDir, [repoRoot]);
	const settings = (extra) => writeUserSettings(userDataDir, { 'mcpSwitchboard.servers': servers, ...extra });
	const token = newRunToken();
	const server = startCodeServer({ port: await freePort(), workspace, scratch, extensionsDir, token });
	await waitHealthy(server.url, server.child);
	const url = `${server.url}?folder=${encodeURIComponent(workspace)}`;
	const listings = join(userDataDir, 'User', 'globalStorage', extensionId.id, 'listings');

	/**
	 * One window: opened, measured when its rows are built, `beforeClosing` run, closed; its extension host and what that
	 * started are gone before it returns.
	 */
	const window = async (beforeClosing = async () => undefined) => {
		const logsBefore = new Set(mainLogs(userDataDir));
		const hostsBefore = new Set(extensionHosts(token));
		const page = await browser.newPage();
		await page.goto(url);
		const log = await until('the window to log its first rows', () =>
			mainLogs(userDataDir).find((file) => !logsBefore.has(file) && LINE.test(readFileSync(file, 'utf8'))),
		);
		const match = LINE.exec(readFileSync(log, 'utf8'));
		const [servers, ms, running, cached] = match.slice(1, 5).map(Number);
		const kept = match[5] !== undefined;
		const [host] = extensionHosts(token).filter((pid) => !hostsBefore.has(pid));
		if (host === undefined) throw new Error('hostActivation: no extension host found for the window');
		// Server processes are children of the extension host (VS Code starts helpers of its own there too).
		const serverProcesses = childPids(host).filter((pid) => {
			try {
				return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(SERVER);
			} catch {
				return false;
			}
		});
		const sample = { ms, servers, running, cached, kept, rss: rss(host), processes: serverProcesses.length };
		// Each window's figures, to see the spread behind the medians.
		if (process.env.BENCH_SAMPLES) process.stderr.write(`\n  ${JSON.stringify(sample)}`);
		await beforeClosing();
		await page.close();
		await endHost(host);
		return sample;
	};

	return {
		/** The first window ever: every server starts (autoStart) and lists, and its listing is kept. */
		async prime() {
			if (count === 0) return;
			settings({ 'mcpSwitchboard.autoStart': true });
			const first = await window(() =>
				until('every listing kept', () => {
					try {
						const kept = JSON.parse(readFileSync(join(listings, 'summaries.json'), 'utf8'));
						return Object.keys(kept.summaries).length >= count;
					} catch {
						return false;
					}
				}),
			);
			// The count of server processes is what the measured windows report as 0: here it must see them all.
			if (first.processes !== count || first.running !== count)
				throw new Error(`hostActivation: the first window ran ${first.running} servers, counted ${first.processes}`);
		},
		async measured() {
			settings({});
			return window();
		},
		stop: () => killTagged(token, { groupLeader: server.child.pid }),
	};
}

export async function run({ rounds }) {
	ensureVsCode({ log: () => undefined });
	const root = mkdtempSync(join(tmpdir(), 'bench-host-'));
	const browser = await launchChromium(newRunToken());
	const profiles = [];
	try {
		const none = await profile(root, 'none', 0, browser);
		profiles.push(none);
		const fifty = await profile(root, 'fifty', SERVERS, browser);
		profiles.push(fifty);
		await fifty.prime();
		// A window opened on a configuration for the first time builds its rows and keeps them (tree/rowSnapshot.ts);
		// the measured windows reopen it, as a user reopening a workspace does. One such window per profile first.
		await none.measured();
		await fifty.measured();
		// Each window costs seconds: a sample per round and variant, alternating which goes first.
		const samples = { none: [], fifty: [] };
		for (let round = 0; round < Math.max(3, rounds); round++) {
			const order = round % 2 === 0 ? ['none', 'fifty'] : ['fifty', 'none'];
			for (const which of order) samples[which].push(await (which === 'none' ? none : fifty).measured());
		}
		const shown = samples.fifty.map((s) => s.cached);
		if (Math.min(...shown) < SERVERS) throw new Error(`hostActivation: a window showed ${shown} cached servers`);
		const of = (list, key) => list.map((sample) => sample[key]);
		const kept = (list) => `${list.filter((sample) => sample.kept).length}/${list.length}`;
		return [
			{
				scenario: 'hostActivation',
				metric: `VS Code: activate() to the Servers view's rows, ${SERVERS} servers (ours) vs none (floor); the last window's rows in ${kept(samples.fifty)} and ${kept(samples.none)} windows`,
				unit: 'ms',
				floor: median(of(samples.none, 'ms')),
				ours: median(of(samples.fifty, 'ms')),
				sdk: '-',
				target: '<= 1.1x',
			},
			{
				scenario: 'hostActivation',
				metric: `VS Code: server processes after activation, ${SERVERS} servers (ours) vs none (floor)`,
				unit: 'count',
				floor: Math.max(...of(samples.none, 'processes')),
				ours: Math.max(...of(samples.fifty, 'processes')),
				sdk: '-',
				target: 'ours 0',
			},
			{
				scenario: 'hostActivation',
				metric: `VS Code: extension host memory (RSS) then, ${SERVERS} servers (ours) vs none (floor)`,
				unit: 'MB',
				floor: median(of(samples.none, 'rss')) / 2 ** 20,
				ours: median(of(samples.fifty, 'rss')) / 2 ** 20,
				sdk: '-',
			},
		];
	} finally {
		await browser.close().catch(() => undefined);
		for (const p of profiles) await p.stop();
		rmSync(root, { recursive: true, force: true });
	}
}
