/**
 * Update from the registry: the installed servers that remember their registry (`"registry": { name, version, url }`
 * in user settings or the workspace's `.vscode/mcp.json`) whose registry lists a newer version. Picking one runs the
 * install again for the new version, in the same place under the same name, with the answers given before.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import { parseJsonc } from '../../manager/jsonc';
import { planInstall, type InstallPlan } from '../../manager/registry/installPlan';
import { RegistryClient, type RegistryListing } from '../../manager/registry/registryClient';
import { serversAt, type ServerTarget } from '../serverWriter';
import { installFromRegistry, type InstallDeps } from './registryInstall';
import { isRecord } from '../../common/records';

interface Installed {
	target: ServerTarget;
	name: string;
	entry: Record<string, unknown>;
	registry: { name: string; version: string; url: string };
}

function installedIn(target: ServerTarget, servers: Record<string, unknown> | undefined): Installed[] {
	const found: Installed[] = [];
	for (const [name, entry] of Object.entries(servers ?? {})) {
		if (!isRecord(entry) || !isRecord(entry.registry)) continue;
		const { name: registryName, version, url } = entry.registry;
		if (typeof registryName === 'string' && typeof version === 'string' && typeof url === 'string')
			found.push({ target, name, entry, registry: { name: registryName, version, url } });
	}
	return found;
}

/** Every entry installed from a registry, in user settings and the first folder's .vscode/mcp.json. */
export async function installedFromRegistry(): Promise<Installed[]> {
	const found = installedIn({ kind: 'user' }, serversAt({ kind: 'user' }));
	const folder = vscode.workspace.workspaceFolders?.[0];
	if (folder) {
		const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
		try {
			const value = parseJsonc(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri))).value;
			if (isRecord(value) && isRecord(value.servers))
				found.push(...installedIn({ kind: 'mcpJson', uri }, value.servers));
		} catch {
			// No mcp.json.
		}
	}
	return found;
}

/** The installed servers with a newer version listed, with that version. Registries that fail are skipped. */
export async function availableUpdates(): Promise<{ installed: Installed; latest: RegistryListing }[]> {
	const installed = await installedFromRegistry();
	const checks = await Promise.allSettled(
		installed.map(async (item) => ({
			installed: item,
			latest: await new RegistryClient(item.registry.url).get(item.registry.name),
		})),
	);
	return checks
		.filter(
			(c): c is PromiseFulfilledResult<{ installed: Installed; latest: RegistryListing }> => c.status === 'fulfilled',
		)
		.map((c) => c.value)
		.filter((c) => c.latest.server.version !== c.installed.registry.version);
}

/** Update Servers from the Registry…: pick an update, install it keeping the answers. */
export async function updateFromRegistry(deps: InstallDeps): Promise<string | undefined> {
	const updates = await vscode.window.withProgress(
		{ location: vscode.ProgressLocation.Notification, title: 'Checking the registry for updates…' },
		() => availableUpdates(),
	);
	if (updates.length === 0) {
		void vscode.window.showInformationMessage('Every MCP server installed from a registry is up to date.');
		return undefined;
	}
	const picked = await vscode.window.showQuickPick(
		updates.map((u) => ({
			label: u.installed.name,
			description: `${u.installed.registry.version} → ${u.latest.server.version}`,
			detail: u.latest.server.name,
			update: u,
		})),
		{ title: 'Update MCP servers from the registry' },
	);
	if (!picked) return undefined;
	return runUpdate(deps, picked.update.installed, picked.update.latest);
}

/** Installs `latest` over `installed`, in the same place under the same name, keeping the answers given before. */
async function runUpdate(
	deps: InstallDeps,
	installed: Installed,
	latest: RegistryListing,
): Promise<string | undefined> {
	let previous: InstallPlan | undefined;
	try {
		const old = await new RegistryClient(installed.registry.url).get(
			installed.registry.name,
			installed.registry.version,
		);
		previous = planInstall(old.server, installed.registry.url);
	} catch (error) {
		// The old version is gone from the registry: the answers are read against the new plan instead.
		void errorMessage(error);
	}
	return installFromRegistry(deps, latest, {
		target: installed.target,
		name: installed.name,
		entry: installed.entry,
		previous,
	});
}

/**
 * Update on a server's row: checks that server's registry for a newer version and runs the update for it, or says
 * why there is none (up to date, not installed from a registry, the registry cannot be reached).
 */
export async function updateServerFromRegistry(deps: InstallDeps, name: string): Promise<string | undefined> {
	const installed = (await installedFromRegistry()).find((item) => item.name === name);
	if (!installed) {
		void vscode.window.showInformationMessage(
			`'${name}' was not installed from an MCP registry (its entry has no "registry"): there is nothing to update it from.`,
		);
		return undefined;
	}
	let latest: RegistryListing;
	try {
		latest = await vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title: `Checking ${installed.registry.name}…` },
			() => new RegistryClient(installed.registry.url).get(installed.registry.name),
		);
	} catch (error) {
		void vscode.window.showErrorMessage(`Cannot check '${name}' for updates: ${errorMessage(error)}`);
		return undefined;
	}
	if (latest.server.version === installed.registry.version) {
		void vscode.window.showInformationMessage(
			`'${name}' is up to date (${installed.registry.name} ${installed.registry.version}).`,
		);
		return undefined;
	}
	return runUpdate(deps, installed, latest);
}

/** The context key that is true while some server remembers its registry: the rows then offer Update. */
export const REGISTRY_INSTALLED_KEY = 'mcpSwitchboard.registryInstalled';

/** Keeps {@link REGISTRY_INSTALLED_KEY} current as user settings and the workspace's .vscode/mcp.json change. */
export function trackRegistryInstalled(): vscode.Disposable {
	const refresh = () =>
		void installedFromRegistry().then((found) =>
			vscode.commands.executeCommand('setContext', REGISTRY_INSTALLED_KEY, found.length > 0),
		);
	const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
	const subscriptions = [
		watcher,
		watcher.onDidChange(refresh),
		watcher.onDidCreate(refresh),
		watcher.onDidDelete(refresh),
		vscode.workspace.onDidChangeConfiguration((event) => {
			if (event.affectsConfiguration('mcpSwitchboard.servers')) refresh();
		}),
	];
	refresh();
	return vscode.Disposable.from(...subscriptions);
}
