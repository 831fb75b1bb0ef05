/**
 * Trust for workspace-defined servers. In an untrusted workspace they never start (no question is asked). In a
 * trusted one, the first start of each server — and the first start after its command, args, env or URL changed —
 * asks the user, showing exactly what will run; the answer is remembered per workspace (workspaceState) and per
 * launch description, so any change to what runs asks again.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';

/** Asks whether `server` may run `description`: true allow, false refuse, undefined dismissed (not remembered). */
export type TrustPrompt = (server: string, description: string) => Promise<boolean | undefined>;

const ALLOW = 'Allow';
const DONT_ALLOW = "Don't Allow";

/** A modal warning that shows the command line or URL in its detail. */
const modalPrompt: TrustPrompt = async (server, description) => {
	const choice = await vscode.window.showWarningMessage(
		`Allow the MCP server '${server}', defined by this workspace, to run?`,
		{ modal: true, detail: `${description}\n\nOnly allow servers from sources you trust: a server runs with your permissions.` },
		ALLOW,
		DONT_ALLOW,
	);
	return choice === ALLOW ? true : choice === DONT_ALLOW ? false : undefined;
};

// The replacement lives on globalThis so that a test suite, bundled separately from the extension but running in
// the same extension host, replaces the prompt the extension's own copy of this module uses.
const overrideKey = Symbol.for('mcp-switchboard.trustPrompt');
type Holder = Record<symbol, TrustPrompt | undefined>;

/**
 * Replaces the trust question. VS Code refuses to show modal dialogs to extension tests (and the smoke-test driver
 * answers them by itself), so suites answer through this instead. `undefined` restores the default.
 */
export function setTrustPromptForTests(replacement: TrustPrompt | undefined): void {
	(globalThis as unknown as Holder)[overrideKey] = replacement;
}

const STATE_KEY = 'mcpSwitchboard.trustDecisions';

/** Remembered decisions, keyed by a hash of the server name and what it runs. */
export class TrustDecisions {
	private readonly asking = new Map<string, Promise<boolean>>();

	/**
	 * `testMode` (ExtensionMode.Test): VS Code refuses modal dialogs to extension tests, so unless a suite installed
	 * its own answer with setTrustPromptForTests, servers are allowed (and that is logged, not remembered).
	 */
	constructor(
		private readonly state: vscode.Memento,
		private readonly testMode = false,
		private readonly log?: vscode.LogOutputChannel,
	) {}

	private async ask(server: string, description: string): Promise<{ answer: boolean | undefined; remember: boolean }> {
		const override = (globalThis as unknown as Holder)[overrideKey];
		if (override) return { answer: await override(server, description), remember: true };
		if (this.testMode) {
			this.log?.info(`Extension test mode: allowing workspace server '${server}' without asking (${description.split('\n')[0]})`);
			return { answer: true, remember: false };
		}
		return { answer: await modalPrompt(server, description), remember: true };
	}

	private static key(server: string, description: string): string {
		return createHash('sha256').update(`${server}\u0000${description}`).digest('hex').slice(0, 32);
	}

	private decisions(): Record<string, boolean> {
		return this.state.get<Record<string, boolean>>(STATE_KEY) ?? {};
	}

	/**
	 * Whether `server` may run `description`. False without asking when the workspace is untrusted. Concurrent
	 * calls for the same server and description share one question.
	 */
	confirm(server: string, description: string): Promise<boolean> {
		if (!vscode.workspace.isTrusted) return Promise.resolve(false);
		const key = TrustDecisions.key(server, description);
		const remembered = this.decisions()[key];
		if (remembered !== undefined) return Promise.resolve(remembered);
		let pending = this.asking.get(key);
		if (!pending) {
			pending = (async () => {
				try {
					const { answer, remember } = await this.ask(server, description);
					if (answer !== undefined && remember) await this.state.update(STATE_KEY, { ...this.decisions(), [key]: answer });
					return answer ?? false;
				} finally {
					this.asking.delete(key);
				}
			})();
			this.asking.set(key, pending);
		}
		return pending;
	}

	/** Forgets every decision of this workspace; the next start of each workspace-defined server asks again. */
	async reset(): Promise<number> {
		const count = Object.keys(this.decisions()).length;
		await this.state.update(STATE_KEY, undefined);
		return count;
	}
}
