/**
 * Pinning over the Manager: the first listing a running (so trusted) server gives is pinned per server identity; a
 * later listing's changed or new tools, prompts and resource templates are held back from models (`@mcp` and the
 * gateway) until the user accepts them, unless holding is switched off. The palette still runs a held tool, with a
 * warning (consent asks, naming the change). Pins live in a PinStore, so they survive restarts.
 */
import { Emitter, type Event } from '../../common/event';
import type { Disposable } from '../../common/disposable';
import type { Manager } from '../manager';
import { serverIdentity } from '../serverIdentity';
import type { NamedTool, ServerView } from '../types';
import type { Prompt, ResourceTemplate, Tool } from '../../protocol/schema';
import type { DefinitionKind } from './definitionHash';
import { accept, changesOf, type DefinitionChange, isChanged, type Listing, pinAll, type PinStore } from './pins';

/** What pinning needs besides the Manager. */
export interface DefinitionPinsOptions {
	store: PinStore;
	/**
	 * Whether a changed definition of `server` is held back (`mcpSwitchboard.pinning.holdChanged`; off for a server
	 * the user develops). Default: always.
	 */
	holdChanged?(server: string): boolean;
}

function listingOf(view: ServerView): Listing {
	return { tools: view.tools.map((named) => named.tool), prompts: view.prompts, templates: view.resourceTemplates };
}

export class DefinitionPins implements Disposable {
	private readonly changeEmitter = new Emitter<{ server: string }>();
	/** Fires when a server's held definitions may have changed (a new listing, an accept). */
	readonly onDidChange: Event<{ server: string }> = this.changeEmitter.event;
	private readonly subscription: Disposable;

	constructor(
		private readonly manager: Pick<Manager, 'get' | 'servers' | 'onDidChangeLists'>,
		private readonly options: DefinitionPinsOptions,
	) {
		this.subscription = manager.onDidChangeLists(({ server }) => this.observe(server));
		for (const view of manager.servers()) this.observe(view.name);
	}

	/** Pins a running server's first listing; tells listeners a later one arrived. */
	private observe(server: string): void {
		const view = this.manager.get(server);
		if (!view || view.state.kind !== 'running') return;
		const identity = serverIdentity(view);
		if (!this.options.store.get(identity)) void this.options.store.set(identity, pinAll(listingOf(view)));
		this.changeEmitter.fire({ server });
	}

	private record(view: ServerView) {
		return this.options.store.get(serverIdentity(view));
	}

	/** True when `item` of `server` differs from its pin (whether or not it is held). */
	isChanged(server: string, kind: DefinitionKind, item: Tool | Prompt | ResourceTemplate): boolean {
		const view = this.manager.get(server);
		return view !== undefined && isChanged(this.record(view), kind, item);
	}

	/** True when `item` of `server` is held back from models: changed since its pin, and holding is on for the server. */
	isHeld(server: string, kind: DefinitionKind, item: Tool | Prompt | ResourceTemplate): boolean {
		return (this.options.holdChanged?.(server) ?? true) && this.isChanged(server, kind, item);
	}

	/** Whether a tool may be offered to models (the filter `@mcp` and the gateway apply). */
	readonly toolOffered = (named: NamedTool): boolean => !this.isHeld(named.server, 'tool', named.tool);

	/** The definitions of `server` that differ from their pins, with their pinned and current text. */
	changes(server: string): DefinitionChange[] {
		const view = this.manager.get(server);
		return view && view.state.kind === 'running' ? changesOf(this.record(view), listingOf(view)) : [];
	}

	/** The running servers that have changed definitions, in configuration order. */
	changedServers(): string[] {
		return this.manager
			.servers()
			.filter((view) => this.changes(view.name).length > 0)
			.map((view) => view.name);
	}

	/** Accepts `server`'s current definitions (all of them, or those named): they are pinned and offered again. */
	async accept(server: string, names?: readonly { kind: DefinitionKind; name: string }[]): Promise<void> {
		const view = this.manager.get(server);
		if (!view || view.state.kind !== 'running') return;
		const identity = serverIdentity(view);
		const listing = listingOf(view);
		const record = this.options.store.get(identity);
		await this.options.store.set(identity, record ? accept(record, listing, names) : pinAll(listing));
		this.changeEmitter.fire({ server });
	}

	/** Tells listeners every server's held definitions may have changed (holding was switched on or off). */
	refresh(): void {
		for (const view of this.manager.servers()) this.changeEmitter.fire({ server: view.name });
	}

	dispose(): void {
		this.subscription.dispose();
		this.changeEmitter.dispose();
	}
}

/** The filter for tools offered to models: switched on (enablement, app-only tools) and not held back by pinning. */
export function offeredToModels(
	pins: Pick<DefinitionPins, 'toolOffered'>,
	isEnabled: (named: NamedTool) => boolean,
): (named: NamedTool) => boolean {
	return (named) => isEnabled(named) && pins.toolOffered(named);
}
