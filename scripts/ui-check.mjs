// `npm run ui-check`: looks at the extension the way a person does. Starts the demo as `npm start` does (installed
// extension, no test driver, so toasts and dialogs are real) with a fresh profile, opens it in headless Chromium,
// clicks the "MCP" item in the activity bar, waits until the Servers view shows server rows, checks that no dialog
// opened by itself, clicks each "needs trust" row and answers its trust prompt with "Allow", waits until every server shows its tools, expands the first one, and saves
// test-results/ui-check.png (and ui-check.json: rows, dialogs seen, timings). Exits non-zero (with a screenshot of what was there) when a step fails.
//
// Environment: MCP_SWITCHBOARD_UI_CHECK_TIMEOUT_MS bounds each wait (default 60 s);
// MCP_SWITCHBOARD_UI_CHECK_SERVERS is how many server rows to wait for (default 3, the demo's servers).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from './start.mjs';
import { launchChromium, repoRoot } from './workbench.mjs';

const timeout = Number(process.env.MCP_SWITCHBOARD_UI_CHECK_TIMEOUT_MS ?? 60_000);
const expectedServers = Number(process.env.MCP_SWITCHBOARD_UI_CHECK_SERVERS ?? 3);
const results = join(repoRoot, 'test-results');
mkdirSync(results, { recursive: true });
// `--out <file.png>` also saves the final picture there (e.g. for the README).
const outArg = process.argv.indexOf('--out');
const extraOut = outArg > 0 ? process.argv[outArg + 1] : undefined;
const shot = join(results, 'ui-check.png');
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/** A server row whose description counts at least one tool ("14 tools · stdio"); "0 tools" is not there yet. */
const listsTools = (description) => /\b[1-9][\d,]* tools?\b/i.test(description);

const profileDir = mkdtempSync(join(tmpdir(), 'mcp-switchboard-ui-check-'));
let demo;
let browser;
let page;
let status = 0;
try {
	demo = await startDemo({ profileDir, port: 0, log: (line) => console.log(line) });
	console.log(`ui-check: workbench at ${demo.url} after ${elapsed()}`);
	browser = await launchChromium(demo.token);
	page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	await page.goto(demo.url);

	// The MCP container in the activity bar, as a person would find it.
	const item = page.locator('.part.activitybar .action-item a[aria-label^="MCP"]');
	await item.first().waitFor({ state: 'visible', timeout });
	console.log(`ui-check: activity bar shows "${await item.first().getAttribute('aria-label')}" after ${elapsed()}`);
	await item.first().click();

	// Server rows: the top-level rows of the tree in the side bar (the MCP container holds only the Servers view).
	await page.locator('.part.sidebar .composite.title').filter({ hasText: 'MCP' }).first().waitFor({ timeout });
	const view = page.locator('.part.sidebar .monaco-list-row[aria-level="1"]');
	await page.waitForFunction(
		// Runs in the page (Playwright serializes it), where `document` exists.
		// eslint-disable-next-line no-undef
		(n) => document.querySelectorAll('.part.sidebar .monaco-list-row[aria-level="1"] .label-name').length >= n,
		expectedServers,
		{ timeout },
	);
	const rows = await view.evaluateAll((els) =>
		els.map((el) => ({
			name: el.querySelector('.label-name')?.textContent?.trim() ?? '',
			description: el.querySelector('.label-description')?.textContent?.trim() ?? '',
		})),
	);
	console.log(`ui-check: ${rows.length} server rows after ${elapsed()}:`);
	for (const row of rows) console.log(`  ${row.name}  ${row.description}`);

	// Nothing asks by itself: opening the workspace raises no dialog. Workspace-defined servers show "needs trust".
	await page.waitForTimeout(2000);
	const dialogBeforeClick = await page
		.locator('.monaco-dialog-box')
		.isVisible()
		.catch(() => false);
	if (dialogBeforeClick) throw new Error('a dialog opened at start-up, before anything was clicked');
	// A person clicks each "needs trust" row (its Start), reads the trust prompt and answers "Allow", then sees the
	// servers run.
	const dialogs = [];
	const clicked = new Set();
	const deadline = Date.now() + timeout;
	let descriptions = [];
	while (Date.now() < deadline) {
		const dialog = page.locator('.monaco-dialog-box');
		if (await dialog.isVisible().catch(() => false)) {
			const title = (
				await dialog
					.locator('.dialog-message-text')
					.innerText()
					.catch(() => '')
			).trim();
			const detail = (
				await dialog
					.locator('.dialog-message-detail')
					.innerText()
					.catch(() => '')
			).trim();
			dialogs.push({ title, detail });
			console.log(`ui-check: dialog "${title}" (${detail.split('\n')[0]}) -> Allow`);
			await dialog.getByRole('button', { name: 'Allow', exact: true }).click({ timeout: 5000 });
			continue;
		}
		const waiting = await view.evaluateAll((els) =>
			els
				.map((el) => ({
					name: el.querySelector('.label-name')?.textContent?.trim() ?? '',
					description: el.querySelector('.label-description')?.textContent?.trim() ?? '',
				}))
				.filter((row) => /^needs trust/.test(row.description))
				.map((row) => row.name),
		);
		const next = waiting.find((name) => !clicked.has(name));
		if (next) {
			clicked.add(next);
			console.log(`ui-check: clicking "${next}" (needs trust)`);
			await view.filter({ hasText: next }).first().click();
			await page.waitForTimeout(500);
			continue;
		}
		descriptions = await view.evaluateAll((els) =>
			els.map((el) => el.querySelector('.label-description')?.textContent?.trim() ?? ''),
		);
		if (descriptions.length >= expectedServers && descriptions.every(listsTools)) break;
		await page.waitForTimeout(300);
	}
	const running = descriptions.filter(listsTools).length;
	console.log(
		`ui-check: ${running} of ${descriptions.length} servers show tools after ${elapsed()}: ${descriptions.join(' | ')}`,
	);
	// Expand the first server and its first group (Tools), as a person browsing would.
	await view.first().click();
	for (const key of ['ArrowRight', 'ArrowDown', 'ArrowRight']) {
		await page.keyboard.press(key);
		await page.waitForTimeout(300);
	}
	await page.waitForTimeout(700);
	await page.screenshot({ path: shot });
	if (extraOut) await page.screenshot({ path: extraOut });
	writeFileSync(
		join(results, 'ui-check.json'),
		JSON.stringify(
			{ ok: running >= expectedServers, seconds: (Date.now() - started) / 1000, rows, dialogs, descriptions },
			null,
			'\t',
		),
	);
	if (running < expectedServers)
		throw new Error(`only ${running} of ${expectedServers} servers came up (see the screenshot)`);
	console.log(`ui-check: saved ${shot} after ${elapsed()}`);
} catch (error) {
	status = 1;
	console.error(`ui-check: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
	await page?.screenshot({ path: shot }).catch(() => undefined);
	if (page) console.error(`ui-check: what the page showed is in ${shot}`);
} finally {
	await browser?.close().catch(() => undefined);
	await demo?.stop();
	rmSync(profileDir, { recursive: true, force: true });
}
process.exit(status);
