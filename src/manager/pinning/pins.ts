/**
 * Pinned definitions: what a server's tools, prompts and resource templates said when they were first offered to a
 * model, per server identity (manager/serverIdentity.ts), and the comparison of a later listing against them. A
 * definition whose hash differs from its pin, or that has no pin while its server has one, is "held": it is not
 * offered to `@mcp` or the gateway until the user reviews the change (the "rug pull" of tool poisoning: a server
 * the user approved changes what its tools tell the model). Pure apart from the store it is given.
 */
import type { Prompt, ResourceTemplate, Tool } from '../../protocol/schema';
import {
	type DefinitionKind,
	type DefinitionParts,
	hashParts,
	partsText,
	promptParts,
	templateParts,
	toolParts,
} from './definitionHash';

/** One pinned definition: its hash and its parts as pretty JSON (what the review's diff shows as "before"). */
export interface Pin {
	hash: string;
	text: string;
}

/** Every pin of one server, by kind and name. */
export interface PinRecord {
	tool: Record<string, Pin>;
	prompt: Record<string, Pin>;
	template: Record<string, Pin>;
}

/**
 * Where pins are kept (the extension: globalState, so they survive restarts; tests and the command line: memory or
 * a file). Keyed by server identity.
 */
export interface PinStore {
	get(identity: string): PinRecord | undefined;
	set(identity: string, record: PinRecord): void | PromiseLike<void>;
}

/** A store in memory. */
export class MemoryPinStore implements PinStore {
	private readonly records = new Map<string, PinRecord>();

	get(identity: string): PinRecord | undefined {
		return this.records.get(identity);
	}

	set(identity: string, record: PinRecord): void {
		this.records.set(identity, record);
	}
}

/** A server's current listing, as far as pinning is concerned. */
export interface Listing {
	tools: readonly Tool[];
	prompts: readonly Prompt[];
	templates: readonly ResourceTemplate[];
}

/** One definition that differs from its pin: `before` is absent for a definition that is new since the pin. */
export interface DefinitionChange {
	kind: DefinitionKind;
	name: string;
	before?: string;
	after: string;
}

/** The name a definition is pinned under (a template by its URI template when it has no name). */
function nameOf(kind: DefinitionKind, item: Tool | Prompt | ResourceTemplate): string {
	return kind === 'template' ? (item as ResourceTemplate).uriTemplate : item.name;
}

const partsOf: Record<DefinitionKind, (item: never) => DefinitionParts> = {
	tool: toolParts,
	prompt: promptParts,
	template: templateParts,
};

/** Hashes are cached per listed object: a listing is compared on every tools/list, its objects change only on a new list. */
const hashes = new WeakMap<object, Pin>();

/** The pin a definition would have now. */
export function pinOf(kind: DefinitionKind, item: Tool | Prompt | ResourceTemplate): Pin {
	let pin = hashes.get(item);
	if (!pin) {
		const parts = (partsOf[kind] as (item: Tool | Prompt | ResourceTemplate) => DefinitionParts)(item);
		pin = { hash: hashParts(parts), text: partsText(parts) };
		hashes.set(item, pin);
	}
	return pin;
}

function itemsOf(listing: Listing, kind: DefinitionKind): readonly (Tool | Prompt | ResourceTemplate)[] {
	return kind === 'tool' ? listing.tools : kind === 'prompt' ? listing.prompts : listing.templates;
}

const KINDS: readonly DefinitionKind[] = ['tool', 'prompt', 'template'];

/** A record that pins every definition of `listing` (kept: pins of definitions no longer listed). */
export function pinAll(listing: Listing, previous?: PinRecord): PinRecord {
	const record: PinRecord = {
		tool: { ...previous?.tool },
		prompt: { ...previous?.prompt },
		template: { ...previous?.template },
	};
	for (const kind of KINDS)
		for (const item of itemsOf(listing, kind)) record[kind][nameOf(kind, item)] = pinOf(kind, item);
	return record;
}

/** True when `item` differs from its pin in `record` (or has none while the server has a record). */
export function isChanged(
	record: PinRecord | undefined,
	kind: DefinitionKind,
	item: Tool | Prompt | ResourceTemplate,
): boolean {
	if (!record) return false;
	const pinned = record[kind][nameOf(kind, item)];
	return pinned?.hash !== pinOf(kind, item).hash;
}

/** Every definition of `listing` that differs from `record`, tools first, in listing order. */
export function changesOf(record: PinRecord | undefined, listing: Listing): DefinitionChange[] {
	if (!record) return [];
	const changes: DefinitionChange[] = [];
	for (const kind of KINDS)
		for (const item of itemsOf(listing, kind)) {
			if (!isChanged(record, kind, item)) continue;
			const name = nameOf(kind, item);
			const before = record[kind][name]?.text;
			changes.push({ kind, name, ...(before !== undefined ? { before } : {}), after: pinOf(kind, item).text });
		}
	return changes;
}

/** `record` with the given changes accepted (their current definitions pinned). */
export function accept(
	record: PinRecord,
	listing: Listing,
	names?: readonly { kind: DefinitionKind; name: string }[],
): PinRecord {
	const next: PinRecord = { tool: { ...record.tool }, prompt: { ...record.prompt }, template: { ...record.template } };
	for (const kind of KINDS)
		for (const item of itemsOf(listing, kind)) {
			const name = nameOf(kind, item);
			if (names && !names.some((n) => n.kind === kind && n.name === name)) continue;
			next[kind][name] = pinOf(kind, item);
		}
	return next;
}

/**
 * The text of a review: every change as "before" and "after" documents, one section per definition under the same
 * header on both sides, so VS Code's diff editor shows only what changed (a new definition: an empty "before").
 */
export function reviewTexts(changes: readonly DefinitionChange[]): { before: string; after: string } {
	const header = (change: DefinitionChange) =>
		`// ${change.kind} ${change.name}${change.before === undefined ? ' (new since you approved this server)' : ''}\n`;
	return {
		before: changes.map((change) => header(change) + (change.before ?? '')).join('\n'),
		after: changes.map((change) => header(change) + change.after).join('\n'),
	};
}
