// One MCP world in VS Code (issue 33): a server in the workspace's .vscode/mcp.json is run by VS Code for its agent
// and shown in Switchboard's tree without a second process (Switchboard reaches it through VS Code), its tools reach
// VS Code's agent once (the gateway leaves it out), a server in the profile's user mcp.json appears in the tree and
// runs from the palette, and the command line lists the same servers for the same folder as the extension.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { readWorkspaceServers } from '../../../src/cli/workspaceConfig';
import { serverTooltip } from '../../../src/vscode/tree/serversTree';
import { extensionApi, test, waitFor } from './harness';

const repo = process.env.MCP_SWITCHBOARD_E2E_REPO ?? '';
const everything = path.join(repo, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
/** The profile's User folder (the runner's user settings file lives there, and so does the user mcp.json). */
const userDir = path.dirname(process.env.MCP_SWITCHBOARD_E2E_USER_SETTINGS ?? '');

/** The pids of server-everything processes whose working folder is `cwd` (from /proc: what really runs). */
function everythingProcesses(cwd: string): number[] {
	const pids: number[] = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
			if (cmdline.includes('server-everything') && fs.readlinkSync(`/proc/${entry}/cwd`) === cwd)
				pids.push(Number(entry));
		} catch {
			// gone, or not ours to read
		}
	}
	return pids;
}

function description(api: SwitchboardApi, server: string): string {
	const item = api.tree.getTreeItem({ kind: 'server', server });
	return typeof item.description === 'string' ? item.description : '';
}

function tooltip(api: SwitchboardApi, server: string): string {
	const view = api.manager.get(server);
	// Markdown escapes dots and dashes (\.json): compare the text as a person reads it.
	return view ? serverTooltip(view).value.replace(/\\/g, '') : '';
}

/** The extension's and the command line's lists for the workspace folder: name and where it is configured. */
async function bothLists(api: SwitchboardApi): Promise<{ extension: string[]; cli: string[] }> {
	const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
	const cli = await readWorkspaceServers(folder, userDir);
	// The command line labels files relative to the folder, the extension by the folder's name, and VS Code gives
	// no path for settings: compare the kind of source, and the file of the mcp.json ones.
	const where = (source: { path?: string; kind: string }) =>
		source.kind === 'mcpJson' || source.kind === 'userMcpJson' ? `${source.kind} ${source.path}` : source.kind;
	return {
		extension: api.manager
			.servers()
			.map((server) => `${server.name} @ ${where(server.source)}`)
			.sort(),
		cli: cli.entries.map((entry) => `${entry.name} @ ${where(entry.source)}`).sort(),
	};
}

test(
	'a .vscode/mcp.json server runs once: VS Code starts it, the tree shows it through VS Code, the agent sees each tool once',
	async () => {
		const api = await extensionApi<SwitchboardApi>();
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
		const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'world-e2e-')));
		const mcpJson = path.join(folder, '.vscode', 'mcp.json');
		fs.writeFileSync(
			mcpJson,
			JSON.stringify({ servers: { world: { type: 'stdio', command: 'node', args: [everything, 'stdio'], cwd } } }),
		);
		try {
			const view = await waitFor(() => api.manager.get('world'), {
				timeoutMs: 20_000,
				message: 'the .vscode/mcp.json server in the tree',
			});
			assert.equal(view.source.vscodeRuns, true);
			await waitFor(() => description(api, 'world').includes('also in VS Code'), {
				timeoutMs: 10_000,
				message: `"also in VS Code" in the row (it reads "${description(api, 'world')}")`,
			});
			assert.match(tooltip(api, 'world'), /mcp\.json/);

			// VS Code starts its own servers as its agent would, and lists their tools (named after the server's
			// announced title, "Everything Reference Server": mcp_everything_re_<tool>).
			const prefix = 'mcp_everything_re_';
			// Asked again until its tools are there: VS Code may read the new mcp.json after the first ask.
			await waitFor(
				async () => {
					if (vscode.lm.tools.some((tool) => tool.name.startsWith(prefix))) return true;
					await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
					return vscode.lm.tools.some((tool) => tool.name.startsWith(prefix));
				},
				{
					timeoutMs: 60_000,
					message: `VS Code's tools of 'world' (have: ${vscode.lm.tools.map((t) => t.name).join(', ')})`,
				},
			);

			// The user's Start in the tree (the trust question is answered Allow in test mode).
			await vscode.commands.executeCommand('mcpSwitchboard.startServer', 'world');
			await waitFor(() => (api.manager.get('world')?.tools.length ?? 0) > 0, {
				timeoutMs: 30_000,
				message: `'world' running in Switchboard with its tools (it is ${api.manager.get('world')?.state.kind})`,
			});
			const result = await api.manager.callTool('world', 'echo', { message: 'one world' }, { origin: 'palette' });
			assert.deepEqual(result.content, [{ type: 'text', text: 'Echo: one world' }]);
			// Switchboard connected once to learn the server's announced name (VS Code's tool prefix), then closed that
			// connection and reaches the tools through VS Code: VS Code's process is the only one left.
			const pids = await waitFor(() => everythingProcesses(cwd).length === 1 && everythingProcesses(cwd), {
				timeoutMs: 15_000,
				message: `one process of the configured server (have ${everythingProcesses(cwd).join(', ')})`,
			});
			assert.equal(pids.length, 1);
			assert.equal(api.manager.get('world')?.state.kind, 'running');

			// Each tool reaches VS Code's agent once: VS Code's own copy, and nothing through the gateway, which offers each
			// of its servers as a definition of its own (its tools would read mcp_world_<tool>) but not this one.
			const tools = api.manager.get('world')!.tools.map((named) => named.tool.name);
			assert.ok(tools.length >= 5, tools.join(', '));
			assert.ok(!api.gateway.catalog.servers().includes('world'), 'the gateway has no definition for it');
			for (const tool of tools) {
				const seen = vscode.lm.tools.filter(
					(info) => info.name === `${prefix}${tool}`.slice(0, 64) || info.name === `mcp_world_${tool}`.slice(0, 64),
				);
				assert.equal(seen.length, 1, `${tool}: ${seen.map((info) => info.name).join(', ')}`);
			}
			assert.equal(
				vscode.lm.tools.filter((info) => info.name.startsWith('mcp_world_') || info.name.includes('__world__')).length,
				0,
				'the gateway does not offer it again',
			);

			const lists = await bothLists(api);
			assert.deepEqual(lists.extension, lists.cli, 'the command line lists what the extension lists');
		} finally {
			fs.rmSync(mcpJson, { force: true });
			await waitFor(() => api.manager.get('world') === undefined, { timeoutMs: 15_000, message: "'world' gone" });
		}
	},
	{ timeoutMs: 150_000 },
);

test(
	"a server in the profile's user mcp.json appears in the tree and runs from the palette",
	async () => {
		const api = await extensionApi<SwitchboardApi>();
		const file = path.join(userDir, 'mcp.json');
		const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
		const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'world-user-e2e-')));
		fs.writeFileSync(
			file,
			JSON.stringify({ servers: { 'user-world': { command: 'node', args: [everything, 'stdio'], cwd } } }),
		);
		try {
			const view = await waitFor(() => api.manager.get('user-world'), {
				timeoutMs: 20_000,
				message: "the user mcp.json's server in the tree",
			});
			assert.equal(view.source.label, 'User mcp.json');
			assert.equal(view.source.path, file);
			assert.match(tooltip(api, 'user-world'), /User mcp\.json/);
			assert.match(description(api, 'user-world'), /also in VS Code/);

			await vscode.commands.executeCommand('mcpSwitchboard.startServer', 'user-world');
			await waitFor(() => (api.manager.get('user-world')?.tools.length ?? 0) > 0, {
				timeoutMs: 60_000,
				message: `'user-world' running with its tools (it is ${api.manager.get('user-world')?.state.kind})`,
			});
			const result = await api.manager.callTool('user-world', 'echo', { message: 'user' }, { origin: 'palette' });
			assert.deepEqual(result.content, [{ type: 'text', text: 'Echo: user' }]);
			await waitFor(() => everythingProcesses(cwd).length === 1, {
				timeoutMs: 15_000,
				message: `one process of the user's server (have ${everythingProcesses(cwd).join(', ')})`,
			});
			// Switchboard asked VS Code to start its definition of this one server (mcp.config.usrlocal.user-world, not
			// every server VS Code knows) and reaches its tools through it: VS Code has them, filed under 'user-world'.
			const echo = vscode.lm.tools.find((tool) => tool.name === 'mcp_everything_re_echo');
			assert.equal(
				(echo as { fullReferenceName?: string } | undefined)?.fullReferenceName,
				'user-world/echo',
				`VS Code's echo of 'user-world' (have: ${vscode.lm.tools.map((t) => t.name).join(', ')})`,
			);

			const lists = await bothLists(api);
			assert.deepEqual(lists.extension, lists.cli, 'the command line lists what the extension lists');
		} finally {
			if (before === undefined) fs.rmSync(file, { force: true });
			else fs.writeFileSync(file, before);
			await waitFor(() => api.manager.get('user-world') === undefined, {
				timeoutMs: 15_000,
				message: "'user-world' gone",
			});
		}
	},
	{ timeoutMs: 120_000 },
);
