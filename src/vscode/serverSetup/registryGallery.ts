/**
 * Browse MCP Servers: a quick pick over the registries of `mcpSwitchboard.registry.url` that searches as you type
 * (each keystroke pause asks the registries again), one row per server with its name, version, how it runs and its
 * status (a deprecated one says so, with the registry's reason); a registry that cannot be reached is a row of its
 * own that says why. Accepting a row installs it (registryInstall.ts). Also: install links and Update.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import { installOptions, planInstall } from '../../manager/registry/installPlan';
import { requestFromQuery, secureLinkedEntry, type InstallRequest } from '../../manager/registry/installLink';
import {
	findServer,
	registryUrls,
	searchRegistries,
	type RegistryListing,
} from '../../manager/registry/registryClient';
import { describeImport } from '../../manager/importSecrets';
import { inputSecretKey, USER_INPUT_SCOPE } from '../inputs';
import { serversAt, writeServerWithInputs, writableTargets, type ServerTarget } from '../serverWriter';
import { confirmInPick, installFromRegistry, type InstallDeps } from './registryInstall';

/** The registries the setting names (the official one when unset). */
export function configuredRegistries(): string[] {
	return registryUrls(vscode.workspace.getConfiguration('mcpSwitchboard').get<unknown>('registry.url'));
}

interface ServerItem extends vscode.QuickPickItem {
	listing?: RegistryListing;
}

/** How a listing runs, in a few words. */
function runsText(listing: RegistryListing): string {
	const kinds = installOptions(listing.server).map((o) =>
		o.kind === 'streamable-http' || o.kind === 'sse' ? `remote (${o.kind})` : o.kind,
	);
	return kinds.length > 0 ? kinds.join(', ') : 'no way to run it listed';
}

function itemOf(listing: RegistryListing, several: boolean): ServerItem {
	const deprecated = listing.status === 'deprecated';
	const server = listing.server;
	return {
		label: `${deprecated ? '$(warning) ' : ''}${server.title ?? server.name}`,
		description: [
			server.title ? server.name : undefined,
			server.version,
			runsText(listing),
			deprecated ? 'deprecated' : undefined,
		]
			.filter(Boolean)
			.join(' · '),
		detail: `${deprecated ? `Deprecated${listing.statusMessage ? `: ${listing.statusMessage}` : ''}. ` : ''}${server.description}${several ? ` (${listing.registry})` : ''}`,
		listing,
	};
}

/** Opens the gallery; resolves with the name installed, or undefined. */
export function browseRegistry(deps: InstallDeps): Promise<string | undefined> {
	const urls = configuredRegistries();
	const pick = vscode.window.createQuickPick<ServerItem>();
	pick.title = 'Browse MCP Servers';
	pick.placeholder = `Search ${urls.length === 1 ? urls[0] : `${urls.length} registries`} by name or description`;
	pick.matchOnDescription = true;
	pick.matchOnDetail = true;
	let generation = 0;
	let timer: NodeJS.Timeout | undefined;
	const load = (text: string) => {
		const mine = ++generation;
		pick.busy = true;
		void searchRegistries(urls, text.trim() || undefined, { max: 50 }).then(
			(result) => {
				if (mine !== generation) return;
				const items: ServerItem[] = result.failures.map((failure) => ({
					label: `$(error) ${failure.message}`,
					alwaysShow: true,
				}));
				items.push(...result.servers.map((listing) => itemOf(listing, urls.length > 1)));
				if (result.servers.length === 0 && result.failures.length === 0)
					items.push({ label: `No servers match '${text}'`, alwaysShow: true });
				pick.items = items;
				pick.busy = false;
			},
			(error: unknown) => {
				if (mine !== generation) return;
				pick.items = [{ label: `$(error) ${errorMessage(error)}`, alwaysShow: true }];
				pick.busy = false;
			},
		);
	};
	return new Promise((resolve) => {
		let accepted = false;
		pick.onDidChangeValue((text) => {
			if (timer) clearTimeout(timer);
			timer = setTimeout(() => load(text), 250);
		});
		pick.onDidAccept(() => {
			const listing = pick.selectedItems[0]?.listing;
			if (!listing) return;
			accepted = true;
			pick.hide();
			void installFromRegistry(deps, listing).then(resolve, (error: unknown) => {
				void vscode.window.showErrorMessage(`Could not install ${listing.server.name}: ${errorMessage(error)}`);
				resolve(undefined);
			});
		});
		pick.onDidHide(() => {
			if (timer) clearTimeout(timer);
			pick.dispose();
			if (!accepted) resolve(undefined);
		});
		pick.show();
		load('');
	});
}

/**
 * Installs what an install link or a pasted VS Code link asks for. A registry name is looked up (in the link's
 * registry only when the setting lists it; otherwise the configured ones) and installed as from the gallery; an
 * inline server.json too; an inline entry is shown in full and written only after the person agrees.
 */
export async function installRequest(deps: InstallDeps, request: InstallRequest): Promise<string | undefined> {
	try {
		if (request.kind === 'registry') {
			const configured = configuredRegistries();
			// A link cannot send you to a registry you did not choose: it may only pick among the configured ones.
			const urls = request.registry ? configured.filter((u) => u === registryUrls(request.registry)[0]) : configured;
			if (urls.length === 0)
				throw new Error(
					`the link names the registry ${request.registry ?? ''}, which is not in the setting mcpSwitchboard.registry.url`,
				);
			const listing = await vscode.window.withProgress(
				{ location: vscode.ProgressLocation.Notification, title: `Looking up ${request.name}…` },
				() => findServer(urls, request.name, request.version ?? 'latest'),
			);
			return await installFromRegistry(deps, listing);
		}
		if (request.kind === 'serverJson') {
			planInstall(request.server, 'link');
			return await installFromRegistry(deps, { registry: 'link', server: request.server, status: 'active' });
		}
		return await installEntry(deps, request.name, request.entry, request.inputs);
	} catch (error) {
		void vscode.window.showErrorMessage(`Cannot install from the link: ${errorMessage(error)}`);
		return undefined;
	}
}

/**
 * An inline server entry from a link: everything it runs shown first, then where to write it. Secret-looking values
 * go to SecretStorage behind `${input:…}` password inputs; as workspace settings cannot define inputs, an entry that
 * needs some is written to user settings.
 */
async function installEntry(
	deps: InstallDeps,
	name: string,
	linked: Record<string, unknown>,
	linkInputs?: Record<string, unknown>[],
): Promise<string | undefined> {
	const { entry, inputs, secrets } = secureLinkedEntry(name, linked, linkInputs);
	const lines = [
		`'${name}' (from a link: add it only if you trust where the link came from)`,
		...describeImport(linked),
		...inputs.map(
			(input) =>
				`Asks when it starts: ${String(input.id)}${secrets.some((s) => s.id === input.id) ? " (the link's value goes to VS Code's secret storage)" : ''}`,
		),
	];
	if (!(await confirmInPick(`Add the MCP server '${name}' from a link?`, lines, 'Add Server'))) return undefined;
	const targets = inputs.length > 0 ? writableTargets().filter((t) => t.kind === 'user') : writableTargets();
	let target: ServerTarget | undefined = targets[0];
	if (targets.length > 1) {
		const picked = await vscode.window.showQuickPick(
			targets.map((t) => ({ label: t.kind === 'user' ? 'User settings' : 'Workspace settings', target: t })),
			{ title: `Save '${name}' in` },
		);
		target = picked?.target;
	}
	if (!target) return undefined;
	if (name in (serversAt(target) ?? {})) throw new Error(`a server named '${name}' exists already`);
	for (const secret of secrets) await deps.secrets.store(inputSecretKey(USER_INPUT_SCOPE, secret.id), secret.value);
	await writeServerWithInputs(target, name, entry, inputs);
	void vscode.window.showInformationMessage(`Added MCP server '${name}'.`);
	return name;
}

/** The handler of `vscode://<publisher>.mcp-switchboard/install?…`. */
export function installUriHandler(deps: InstallDeps): vscode.UriHandler {
	return {
		handleUri(uri: vscode.Uri) {
			if (uri.path !== '/install') {
				void vscode.window.showErrorMessage(`MCP Switchboard does not handle links to ${uri.path}.`);
				return;
			}
			let request: InstallRequest;
			try {
				request = requestFromQuery(uri.query);
			} catch (error) {
				void vscode.window.showErrorMessage(`Cannot install from the link: ${errorMessage(error)}`);
				return;
			}
			void installRequest(deps, request);
		},
	};
}
