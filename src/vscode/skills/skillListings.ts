/**
 * The skills each running server offers (the Skills extension, SEP-2640), as the Servers tree shows them: a server's
 * listing is asked for the first time its row is shown, once per connection, and holds only the entries (name,
 * description, the manifest of digests and sizes). No SKILL.md is read here: a skill is fetched when it is opened or
 * attached (skillDocuments.ts, chat/chatReferences.ts).
 */
import * as vscode from 'vscode';
import type { Manager } from '../../manager/manager';
import type { McpClient } from '../../protocol/client';
import { SKILLS_EXTENSION, skillsOf, type Skill } from '../../manager/context/skills';
import { errorMessage } from '../../common/errors';

/** What is known of a server's skills: the entries, or why they could not be listed. */
export type SkillListing = Skill[] | { error: string };

/** The listings of the running servers' skills, with an event when one arrives. */
export class SkillListings implements vscode.Disposable {
	private readonly listed = new WeakMap<McpClient, SkillListing>();
	private readonly pending = new WeakSet<McpClient>();
	private readonly changed = new vscode.EventEmitter<string>();
	/** Fires with a server's name when its listing arrived (or failed). */
	readonly onDidChange = this.changed.event;

	constructor(
		private readonly manager: Manager,
		private readonly problem: (server: string, message: string) => void = () => undefined,
	) {}

	/** The running client of `server` when it declares the Skills extension. */
	private offering(server: string): McpClient | undefined {
		const state = this.manager.get(server)?.state;
		return state?.kind === 'running' && state.client.serverExtension(SKILLS_EXTENSION) ? state.client : undefined;
	}

	/** Whether `server` runs and declares the Skills extension (only then has it a Skills group). */
	offers(server: string): boolean {
		return this.offering(server) !== undefined;
	}

	/**
	 * The listing of `server` as far as it is known now; undefined while it is being asked for (the first call asks,
	 * and {@link onDidChange} fires when it arrives) or when the server offers no skills.
	 */
	current(server: string): SkillListing | undefined {
		const client = this.offering(server);
		if (!client) return undefined;
		const known = this.listed.get(client);
		if (known || this.pending.has(client)) return known;
		this.pending.add(client);
		skillsOf(client, (message) => this.problem(server, message)).then(
			(skills) => this.settle(server, client, skills),
			(error: unknown) => this.settle(server, client, { error: errorMessage(error) }),
		);
		return undefined;
	}

	private settle(server: string, client: McpClient, listing: SkillListing): void {
		this.pending.delete(client);
		this.listed.set(client, listing);
		this.changed.fire(server);
	}

	/**
	 * The skills of every running server that offers some, listed now where not yet (for the palette's pick). A server
	 * whose listing fails is left out.
	 */
	async all(): Promise<{ server: string; skill: Skill }[]> {
		const found: { server: string; skill: Skill }[] = [];
		for (const view of this.manager.servers()) {
			const client = this.offering(view.name);
			if (!client) continue;
			const skills = await skillsOf(client).catch(() => []);
			for (const skill of skills) found.push({ server: view.name, skill });
		}
		return found;
	}

	dispose(): void {
		this.changed.dispose();
	}
}
