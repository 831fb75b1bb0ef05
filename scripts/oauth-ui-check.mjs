// `node scripts/oauth-ui-check.mjs`: the OAuth sign-in as a person sees it, without the smoke-test driver (real modal
// dialogs). Starts the fixture authorization server (test/fixtures/authServer.ts) and the demo workbench with an extra
// user-level server behind it, answers the trust prompts with Allow and the sign-in dialog with Open Browser, waits
// for the tab the browser opens to come back and the server to list its tools; then runs "MCP Switchboard: Sign Out of Server…"
// from the command palette, picks the server, and expects the sign-in dialog again. Screenshots and a summary go to
// test-results/oauth-ui-*.png and oauth-ui-check.json. Exits non-zero when a step fails. About 30 s.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { startDemo } from './start.mjs';
import { launchChromium, repoRoot, writeUserSettings } from './workbench.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-switchboard-oauth-ui-'));
const results = join(repoRoot, 'test-results');
mkdirSync(results, { recursive: true });
await build({
	entryPoints: [join(repoRoot, 'test/fixtures/authServer.ts')],
	bundle: true,
	platform: 'node',
	format: 'esm',
	outfile: join(scratch, 'authServer.mjs'),
	logLevel: 'warning',
});
const { startAuthFixture } = await import(join(scratch, 'authServer.mjs'));
const fixture = await startAuthFixture();
const profileDir = join(scratch, 'profile');
writeUserSettings(join(profileDir, 'user-data'), {
	'mcpSwitchboard.servers': { 'oauth-demo': { type: 'http', url: fixture.mcpUrl } },
});
let demo,
	browser,
	status = 0;
const t0 = Date.now();
const log = (s) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${s}`);
try {
	demo = await startDemo({ profileDir, port: 0, log: () => undefined });
	browser = await launchChromium(demo.token);
	const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	const tabs = [];
	page.context().on('page', (p) => {
		tabs.push(p);
		p.on('load', () => log(`tab loaded ${p.url().split('?')[0]}`));
	});
	await page.goto(demo.url);
	await page.locator('.part.activitybar .action-item a[aria-label^="MCP"]').first().click({ timeout: 60_000 });
	const signIns = [];
	const answerDialogs = async (until, ms = 60_000) => {
		const deadline = Date.now() + ms;
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
				if (/sign in/.test(title)) {
					signIns.push(title);
					await page.screenshot({ path: `${results}/oauth-ui-signin-${signIns.length}.png` });
					log(`dialog "${title}" / "${detail}" -> Open Browser`);
					await dialog.getByRole('button', { name: 'Open Browser', exact: true }).click({ timeout: 5000 });
				} else {
					log(`dialog "${title}" -> Allow`);
					await dialog.getByRole('button', { name: 'Allow', exact: true }).click({ timeout: 5000 });
				}
				continue;
			}
			if (await until()) return true;
			await page.waitForTimeout(300);
		}
		return false;
	};
	const rowDescription = async () =>
		(
			await page
				.locator('.part.sidebar .monaco-list-row[aria-level="1"]')
				.evaluateAll((els) =>
					els.map((el) => [
						el.querySelector('.label-name')?.textContent?.trim(),
						el.querySelector('.label-description')?.textContent?.trim(),
					]),
				)
		).find(([n]) => n === 'oauth-demo')?.[1] ?? '';
	const ok1 = await answerDialogs(async () => /tool/.test(await rowDescription()));
	log(
		`first sign-in: ${ok1}, row "${await rowDescription()}", sign-in dialogs ${signIns.length}, tabs ${tabs.length}, authorize ${fixture.authorizeRequests.length}`,
	);
	for (const t of tabs)
		log(
			`  tab ${t.url().split('?')[0]}: ${(
				await t
					.locator('body')
					.innerText()
					.catch(() => '')
			).slice(0, 60)}`,
		);
	await page.screenshot({ path: join(results, 'oauth-ui-signed-in.png') });
	// Sign Out through the command palette, as a person would.
	await page.keyboard.press('F1');
	await page.locator('.quick-input-widget .quick-input-box input').fill('>MCP Switchboard: Sign Out of Server');
	await page.waitForTimeout(800);
	await page.keyboard.press('Enter');
	await page.waitForTimeout(800);
	const rows = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name').allInnerTexts();
	log(`sign-out picker rows: ${JSON.stringify(rows)}`);
	await page.screenshot({ path: join(results, 'oauth-ui-signout-picker.png') });
	await page.keyboard.press('Enter');
	const ok2 = await answerDialogs(async () => signIns.length >= 2 && /tool/.test(await rowDescription()), 30_000);
	log(
		`after sign-out: ${ok2}, sign-in dialogs ${signIns.length}, registrations ${fixture.registrations.length}, row "${await rowDescription()}"`,
	);
	await page.screenshot({ path: join(results, 'oauth-ui-signed-in-again.png') });
	const summary = {
		ok: ok1 && ok2 && rows.includes('oauth-demo') && signIns.length === 2,
		signInDialogs: signIns,
		signOutPickerRows: rows,
		authorizeRequests: fixture.authorizeRequests.length,
		registrations: fixture.registrations.length,
		tabs: tabs.map((t) => t.url().split('?')[0]),
	};
	writeFileSync(join(results, 'oauth-ui-check.json'), JSON.stringify(summary, null, '\t'));
	if (!summary.ok) status = 1;
} catch (e) {
	status = 1;
	console.error(e);
} finally {
	await browser?.close().catch(() => undefined);
	await demo?.stop();
	await fixture.close();
	rmSync(scratch, { recursive: true, force: true });
}
process.exit(status);
