// What a local server sees of the editor's environment, in the real VS Code: by default only what a program needs
// plus its `env` (where null removes a variable); `mcpSwitchboard.inheritEnvironment` gives it the rest and restarts
// it. The probe is server-everything's get-env tool, which prints the server's own process.env.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { extensionApi, test, waitFor } from './harness';

const repo = process.env.MCP_SWITCHBOARD_E2E_REPO ?? '';
const everything = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

async function serverEnv(api: SwitchboardApi, server: string): Promise<Record<string, string>> {
	const result = await api.manager.callTool(server, 'get-env', {});
	return JSON.parse((result.content[0] as unknown as { text: string }).text) as Record<string, string>;
}

test(
	'a local server gets PATH and its own env, not the rest of the editor environment, until inheritEnvironment is on',
	async () => {
		const api = await extensionApi<SwitchboardApi>();
		// The runner puts this into the extension host's environment: it stands for a token in a user's shell.
		assert.ok(repo, 'MCP_SWITCHBOARD_E2E_REPO is set in the extension host');
		const config = vscode.workspace.getConfiguration('mcpSwitchboard');
		const servers = config.inspect<Record<string, unknown>>('servers')?.globalValue;
		const inherit = config.inspect<boolean>('inheritEnvironment')?.globalValue;
		try {
			// A user-level server: no trust question. HOME: null removes an inherited (allow-listed) variable.
			await config.update(
				'servers',
				{
					...servers,
					'e2e-env': { command: 'node', args: [everything], env: { PASSED_ON_PURPOSE: 'yes', HOME: null } },
				},
				vscode.ConfigurationTarget.Global,
			);
			await waitFor(() => api.manager.get('e2e-env')?.state.kind === 'running', {
				timeoutMs: 30_000,
				message: 'e2e-env to run',
			});
			const env = await serverEnv(api, 'e2e-env');
			assert.equal(env.PASSED_ON_PURPOSE, 'yes', 'the configured variable is there');
			assert.ok(env.PATH, 'PATH is passed');
			assert.equal(env.HOME, undefined, 'null removed HOME');
			assert.equal(env.MCP_SWITCHBOARD_E2E_REPO, undefined, 'the editor environment was not passed whole');

			await config.update('inheritEnvironment', true, vscode.ConfigurationTarget.Global);
			await waitFor(async () => (await serverEnv(api, 'e2e-env')).MCP_SWITCHBOARD_E2E_REPO === repo, {
				timeoutMs: 30_000,
				message: 'the server to restart with the whole environment',
			});
			assert.equal((await serverEnv(api, 'e2e-env')).HOME, undefined, 'null still removes HOME');
		} finally {
			await config.update('inheritEnvironment', inherit, vscode.ConfigurationTarget.Global);
			await config.update('servers', servers, vscode.ConfigurationTarget.Global);
		}
		await waitFor(() => !api.manager.get('e2e-env'), { timeoutMs: 15_000, message: 'e2e-env to leave' });
	},
	{ timeoutMs: 120_000 },
);
