// Roots and server logging in the real VS Code against server-everything: the workspace folder is offered as a
// file:// root, and the log level setting decides which of the server's log messages reach its output channel.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loggingLevel } from '../../../src/vscode/logs/serverLogging';
import { sleep, test, waitFor } from './harness';
import { api, resultText, serverWithTool } from './elicitationSupport';

const SERVER = 'everything';

test(
	'get-roots-list shows the workspace folder as a file:// root',
	async () => {
		const folder = vscode.workspace.workspaceFolders?.[0];
		assert.ok(folder, 'the e2e workspace is open');
		const manager = await serverWithTool(SERVER, 'get-roots-list');
		const text = await waitFor(
			async () => {
				const result = resultText(await manager.callTool(SERVER, 'get-roots-list', {}));
				return result.includes('Current MCP Roots') && result;
			},
			{ timeoutMs: 10_000, message: 'the server to know the roots' },
		);
		assert.match(text, /Current MCP Roots \(1 total\)/);
		assert.ok(text.includes(`URI: ${folder.uri.toString()}`), `the root is ${folder.uri.toString()}: ${text}`);
		assert.ok(folder.uri.toString().startsWith('file:///'));
		assert.ok(text.includes(`1. ${folder.name}`), 'named after the folder');
	},
	{ timeoutMs: 45_000 },
);

test('the log level comes from mcpSwitchboard.logLevel, overridden per server', async () => {
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	try {
		await config.update('logLevel', 'warning', vscode.ConfigurationTarget.Workspace);
		await config.update('logLevelOverrides', { other: 'debug' }, vscode.ConfigurationTarget.Workspace);
		assert.equal(loggingLevel(SERVER), 'warning');
		assert.equal(loggingLevel('other'), 'debug');
		await config.update('logLevelOverrides', { [SERVER]: 'serverDefault' }, vscode.ConfigurationTarget.Workspace);
		assert.equal(loggingLevel(SERVER), undefined, 'serverDefault sends no logging/setLevel');
		await config.update('logLevelOverrides', { [SERVER]: 'loud' }, vscode.ConfigurationTarget.Workspace);
		assert.equal(loggingLevel(SERVER), 'warning', 'an invalid override falls back to the setting');
	} finally {
		await config.update('logLevel', undefined, vscode.ConfigurationTarget.Workspace);
		await config.update('logLevelOverrides', undefined, vscode.ConfigurationTarget.Workspace);
	}
	assert.equal(loggingLevel(SERVER), 'info', 'the default is info');
});

/** The lines of the server's log channel file ("MCP: everything"), with their time, from the extension's log folder. */
function channelLines(logDir: string): { at: number; text: string }[] {
	const files = fs.existsSync(logDir)
		? fs.readdirSync(logDir).filter((f) => f.endsWith('.log') && f.includes(SERVER))
		: [];
	return files.flatMap((f) =>
		fs
			.readFileSync(path.join(logDir, f), 'utf8')
			.split('\n')
			.map((text) => {
				// Lines start with the local time: "2026-11-22 06:03:02.865 [info] ...".
				const stamp = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}\.\d{3})/.exec(text);
				return { at: stamp ? new Date(`${stamp[1]}T${stamp[2]}`).getTime() : 0, text };
			}),
	);
}

test(
	'server log messages below the chosen level do not reach the server output; at debug they do',
	async () => {
		const { logUri } = await api();
		assert.ok(logUri, 'the test API gives logUri');
		const manager = await serverWithTool(SERVER, 'toggle-simulated-logging');
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		// server-everything sends a message of a random level every 5 s once toggled on (and one at once).
		const simulated = /(Debug|Info|Notice|Warning|Error|Critical|Alert|Emergency)[- ]level/;
		try {
			const start = Date.now();
			await config.update('logLevelOverrides', { [SERVER]: 'debug' }, vscode.ConfigurationTarget.Workspace);
			await sleep(500);
			const toggled = resultText(await manager.callTool(SERVER, 'toggle-simulated-logging', {}));
			assert.match(toggled, /Started/i, toggled);
			await waitFor(() => channelLines(logUri.fsPath).some((l) => l.at >= start && simulated.test(l.text)), {
				timeoutMs: 30_000,
				message: 'a simulated log message in the server output at level debug',
			});

			await config.update('logLevelOverrides', { [SERVER]: 'emergency' }, vscode.ConfigurationTarget.Workspace);
			// Messages already on their way when the level changed may still arrive: judge only what was sent later.
			const changed = Date.now() + 1_000;
			await sleep(20_000);
			const later = channelLines(logUri.fsPath).filter((l) => l.at > changed && simulated.test(l.text));
			assert.deepEqual(
				later.filter((l) => !/Emergency-level/.test(l.text)).map((l) => l.text),
				[],
				'only emergency messages once the level is emergency',
			);
		} finally {
			await manager.callTool(SERVER, 'toggle-simulated-logging', {}).catch(() => undefined);
			await config.update('logLevelOverrides', undefined, vscode.ConfigurationTarget.Workspace);
		}
	},
	{ timeoutMs: 90_000 },
);
