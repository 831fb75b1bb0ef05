// Browse MCP Servers in a real VS Code (issue 26 items 3 and 6): the gallery over a registry of our own on loopback
// (test/fixtures/registry/registryServer.ts, started by this suite) beside one that cannot be reached, searched as a
// person types; Install asks where, asks the server's value in the form, shows what will run, writes user settings,
// and the server (server-everything through `npx -y`) starts and answers its echo tool.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import type { CallOutcome } from '../../../src/vscode/tools/commands';
import { everythingVersion, NAMES, startRegistry } from '../../fixtures/registry/registryServer';
import { needDriver, quickInput, repoRoot, resultText, waitForQuickInput } from './elicitationSupport';
import {
	answerInputBox,
	answerQuickPick,
	driver,
	EXTENSION_ID,
	extensionApi,
	pageTexts,
	pressKey,
	quickInputClose,
	quickInputRows,
	screenshot,
	test,
	waitFor,
	type QuickInputRow,
} from './harness';

const NAME = 'server-everything';

test(
	'Browse MCP Servers installs server-everything from the registry, asks its value, and its echo tool answers',
	async () => {
		needDriver();
		const api = await extensionApi<SwitchboardApi>();
		const registry = await startRegistry({ root: repoRoot() });
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previousServers = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const previousUrl = config.inspect<unknown>('registry.url')?.globalValue;
		// A registry that cannot be reached beside ours: its row says so, ours is still listed.
		const dead = 'http://127.0.0.1:9/v0.1';
		await config.update('registry.url', [dead, registry.url], vscode.ConfigurationTarget.Global);
		try {
			const installing = vscode.commands.executeCommand<string | undefined>('mcpSwitchboard.browseRegistry');
			await waitForQuickInput('Search 2 registries');
			let rows: QuickInputRow[] = [];
			await waitFor(
				async () => {
					rows = await quickInputRows();
					return rows.some((row) => row.label.startsWith('Cannot reach the MCP registry at http://127.0.0.1:9/v0.1'));
				},
				{ timeoutMs: 20_000, message: () => `the gallery's rows (seen: ${JSON.stringify(rows.map((r) => r.label))})` },
			);
			assert.ok(
				rows.some((row) => row.label === 'Everything'),
				JSON.stringify(rows.map((r) => r.label)),
			);
			await screenshot('registry-gallery');
			// Search as you type: the registry is asked for the text typed, then the row is picked.
			await driver({ action: 'fill', selector: '.quick-input-widget .quick-input-box input', text: 'Everything' });
			await waitFor(() => registry.requests.some((r) => r.includes('search=Everything')), {
				timeoutMs: 15_000,
				message: () => `a search for the text typed (requests: ${registry.requests.join(', ')})`,
			});
			await answerQuickPick('Everything');
			await waitForQuickInput('Install io.github.modelcontextprotocol/server-everything in');
			await answerQuickPick('User settings');
			await waitForQuickInput('GZIP_MAX_FETCH_SIZE', 60_000);
			await answerInputBox('4096');
			const confirm = await waitForQuickInput('Install, or Cancel', 30_000);
			const version = everythingVersion(repoRoot());
			assert.match(
				confirm.text,
				new RegExp(`Runs: npx -y @modelcontextprotocol/server-everything@${version.replace(/\./g, '\\.')} stdio`),
			);
			assert.match(confirm.text, /Environment: GZIP_MAX_FETCH_SIZE="4096"/);
			await answerQuickPick('Install');
			assert.equal(await installing, NAME);

			const saved = config.inspect<Record<string, Record<string, unknown>>>('servers')?.globalValue?.[NAME];
			assert.deepEqual(saved, {
				type: 'stdio',
				command: 'npx',
				args: ['-y', `@modelcontextprotocol/server-everything@${version}`, 'stdio'],
				env: { GZIP_MAX_FETCH_SIZE: '4096' },
				registry: { name: 'io.github.modelcontextprotocol/server-everything', version, url: registry.url },
			});
			await waitFor(() => api.manager.get(NAME)?.state.kind === 'running', {
				timeoutMs: 120_000,
				message: () => `'${NAME}' running (state: ${api.manager.get(NAME)?.state.kind ?? 'not configured'})`,
			});
			// Running comes before the tool list: Call Tool on a server with no tools listed yet opens nothing.
			await waitFor(() => api.manager.get(NAME)?.tools.some((named) => named.tool.name === 'echo'), {
				timeoutMs: 60_000,
				message: () => `'${NAME}' listing echo (${api.manager.get(NAME)?.tools.length ?? 0} tools)`,
			});
			// As a person calls it: pick the tool, type the message (typed here, so no consent question).
			const call = vscode.commands.executeCommand<CallOutcome | undefined>('mcpSwitchboard.callTool', { server: NAME });
			await waitForQuickInput('Call Tool on');
			await answerQuickPick('echo');
			await waitForQuickInput('message');
			await answerInputBox('from the gallery');
			const outcome = await call;
			assert.ok(outcome?.result, outcome?.error);
			assert.match(resultText(outcome.result), /Echo: from the gallery/);
		} finally {
			await config.update('servers', previousServers, vscode.ConfigurationTarget.Global);
			await config.update('registry.url', previousUrl, vscode.ConfigurationTarget.Global);
			await registry.close();
		}
		await waitFor(() => api.manager.get(NAME) === undefined, { timeoutMs: 15_000, message: `'${NAME}' removed` });
	},
	{ timeoutMs: 240_000 },
);

/** Right-clicks the visible tree row labelled `label`, as a person does, until its menu offers `entry`. */
async function rowMenu(api: SwitchboardApi, label: string, entry: string): Promise<string[]> {
	await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
	let menu: string[] = [];
	await waitFor(
		async () => {
			menu = await pageTexts('.context-view .monaco-menu .action-label');
			if (menu.includes(entry)) return true;
			if (menu.length > 0) await pressKey('Escape');
			await api.treeView
				.reveal({ kind: 'server', server: label }, { select: false, focus: false })
				.then(undefined, () => undefined);
			const marked = await driver({
				action: 'evaluate',
				script: `(() => {
					const row = [...document.querySelectorAll('.pane-body .monaco-list-row .label-name')]
						.find((e) => e.offsetParent !== null && (e.textContent ?? '').trim() === ${JSON.stringify(label)});
					if (!row) return false;
					row.setAttribute('data-e2e-target', 'registry-row');
					return true;
				})()`,
			});
			if (marked) await driver({ action: 'click', selector: '[data-e2e-target="registry-row"]', button: 'right' });
			return false;
		},
		{ timeoutMs: 45_000, intervalMs: 1_000, message: () => `"${entry}" in the row's menu (seen: ${menu.join(' | ')})` },
	);
	return menu;
}

/**
 * Opens `link` as a person does in VS Code: the command "Open URL" (workbench.action.url.openUrl), the link typed in
 * its box. VS Code's URL service gives a `<scheme>://<publisher>.<name>/…` link to that extension's UriHandler after
 * its "Allow … to open this URI?" question, answered Open here when it is shown. Resolves once `marker` is shown.
 */
async function openLink(link: string, marker: string): Promise<void> {
	void vscode.commands.executeCommand('workbench.action.url.openUrl');
	await waitForQuickInput('URL to open');
	await answerInputBox(link);
	await waitFor(
		async () => {
			const shown = await quickInput();
			if (shown && (shown.text.includes(marker) || shown.placeholder.includes(marker))) return true;
			await driver({
				action: 'evaluate',
				script: `[...document.querySelectorAll('.monaco-dialog-box .monaco-button')].find((b) => b.textContent.trim() === 'Open')?.click()`,
			});
			return false;
		},
		{ timeoutMs: 60_000, message: `"${marker}" after opening ${link}` },
	);
}

test(
	'An install link opened in VS Code shows what will run; Cancel writes nothing, Install writes the entry',
	async () => {
		needDriver();
		const api = await extensionApi<SwitchboardApi>();
		const registry = await startRegistry({ root: repoRoot() });
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previousServers = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const previousUrl = config.inspect<unknown>('registry.url')?.globalValue;
		await config.update('registry.url', registry.url, vscode.ConfigurationTarget.Global);
		const link = `${vscode.env.uriScheme}://${EXTENSION_ID}/install?name=${encodeURIComponent(NAMES.everything)}`;
		const saved = () => config.inspect<Record<string, Record<string, unknown>>>('servers')?.globalValue?.[NAME];
		const version = everythingVersion(repoRoot());
		const runs = new RegExp(
			`Runs: npx -y @modelcontextprotocol/server-everything@${version.replace(/\./g, '\\.')} stdio`,
		);
		try {
			for (const answer of ['Cancel', 'Install'] as const) {
				await openLink(link, `Install ${NAMES.everything} in`);
				await answerQuickPick('User settings');
				await waitForQuickInput('GZIP_MAX_FETCH_SIZE', 60_000);
				await answerInputBox('2048');
				const confirm = await waitForQuickInput('Install, or Cancel', 30_000);
				assert.match(confirm.text, runs);
				assert.match(confirm.text, /Environment: GZIP_MAX_FETCH_SIZE="2048"/);
				assert.equal(saved(), undefined, 'nothing written before the answer');
				if (answer === 'Cancel') await screenshot('registry-link-confirm');
				await answerQuickPick(answer);
				await waitFor(async () => (await quickInput()) === undefined, { message: 'the question closed' });
				if (answer === 'Cancel') assert.equal(saved(), undefined, 'Cancel wrote nothing');
			}
			const written = await waitFor(saved, { timeoutMs: 15_000, message: 'the entry written after Install' });
			assert.deepEqual(written, {
				type: 'stdio',
				command: 'npx',
				args: ['-y', `@modelcontextprotocol/server-everything@${version}`, 'stdio'],
				env: { GZIP_MAX_FETCH_SIZE: '2048' },
				registry: { name: NAMES.everything, version, url: registry.url },
			});
			// As if installed before the registry listed this version: its row offers Update, which installs the latest.
			const servers = config.inspect<Record<string, Record<string, unknown>>>('servers')?.globalValue ?? {};
			const older = { ...written, registry: { name: NAMES.everything, version: '2025.12.18', url: registry.url } };
			await config.update('servers', { ...servers, [NAME]: older }, vscode.ConfigurationTarget.Global);
			await rowMenu(api, NAME, 'Update from the Registry…');
			// A real click on the entry, marked first (the menu's separators are labels too, so an index could miss).
			await driver({
				action: 'evaluate',
				script: `[...document.querySelectorAll('.context-view .monaco-menu .action-label')].find((e) => e.textContent.trim() === 'Update from the Registry…')?.setAttribute('data-e2e-target', 'update-entry')`,
			});
			await driver({ action: 'click', selector: '[data-e2e-target="update-entry"]' });
			await waitForQuickInput('GZIP_MAX_FETCH_SIZE', 60_000);
			await answerInputBox('2048');
			const update = await waitForQuickInput('Update, or Cancel', 30_000);
			assert.match(update.text, runs);
			await answerQuickPick('Update');
			await waitFor(() => (saved()?.registry as { version?: string } | undefined)?.version === version, {
				timeoutMs: 15_000,
				message: () => `the entry updated to ${version} (now: ${JSON.stringify(saved()?.registry)})`,
			});
		} finally {
			await quickInputClose();
			await config.update('servers', previousServers, vscode.ConfigurationTarget.Global);
			await config.update('registry.url', previousUrl, vscode.ConfigurationTarget.Global);
			await registry.close();
		}
		await waitFor(() => api.manager.get(NAME) === undefined, { timeoutMs: 15_000, message: `'${NAME}' removed` });
	},
	{ timeoutMs: 240_000 },
);

test(
	"VS Code's vscode:mcp/install link pasted in Add Server shows what will run; its token goes to secret storage",
	async () => {
		needDriver();
		const api = await extensionApi<SwitchboardApi>();
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const previousServers = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const previousInputs = config.inspect<unknown>('inputs')?.globalValue;
		const name = 'linked-files';
		const token = 'sk-linked-0123456789abcdefXYZ';
		const script = `${repoRoot()}/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`;
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
		const payload = { name, command: 'node', args: [script, folder], env: { API_KEY: token, LOG_LEVEL: 'debug' } };
		const adding = Promise.resolve(vscode.commands.executeCommand<string | undefined>('mcpSwitchboard.addServer'));
		try {
			await waitForQuickInput('Add MCP Server');
			await answerQuickPick('Command (stdio)');
			await waitForQuickInput('Add MCP Server (2/');
			await answerInputBox(`vscode:mcp/install?${encodeURIComponent(JSON.stringify(payload))}`);
			const confirm = await waitForQuickInput('Add Server, or Cancel', 30_000);
			assert.match(
				confirm.text,
				new RegExp(
					`Runs: node ${script.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} ${folder.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`,
				),
			);
			assert.match(confirm.text, /Environment: API_KEY=•••• \(to secret storage\), LOG_LEVEL="debug"/);
			assert.ok(!confirm.text.includes(token), 'the token is not shown');
			assert.equal(config.inspect<Record<string, unknown>>('servers')?.globalValue?.[name], undefined);
			await answerQuickPick('Add Server');
			assert.equal(await adding, name);
			const id = `${name}.env.API_KEY`;
			assert.deepEqual(config.inspect<Record<string, unknown>>('servers')?.globalValue?.[name], {
				command: 'node',
				args: [script, folder],
				env: { API_KEY: `\${input:${id}}`, LOG_LEVEL: 'debug' },
			});
			const inputs = config.inspect<Record<string, unknown>[]>('inputs')?.globalValue ?? [];
			assert.deepEqual(
				inputs.filter((i) => i.id === id).map((i) => [i.type, i.password]),
				[['promptString', true]],
			);
			// It starts with no question: the password input is answered from SecretStorage.
			await waitFor(() => api.manager.get(name)?.state.kind === 'running', {
				timeoutMs: 60_000,
				message: () => `'${name}' running (state: ${api.manager.get(name)?.state.kind ?? 'not configured'})`,
			});
		} finally {
			await quickInputClose();
			await config.update('servers', previousServers, vscode.ConfigurationTarget.Global);
			await config.update('inputs', previousInputs, vscode.ConfigurationTarget.Global);
		}
		await waitFor(() => api.manager.get(name) === undefined, { timeoutMs: 15_000, message: `'${name}' removed` });
	},
	{ timeoutMs: 180_000 },
);
