/**
 * Trust for workspace-defined servers. In an untrusted workspace (Restricted Mode) they never start and nothing is
 * asked. In a trusted one nothing is asked by itself either: at start-up, on a settings change or a crash restart a
 * server runs only if the user allowed exactly this configuration before; otherwise its row says "needs trust" and
 * the question comes when the user starts it (as VS Code's own MCP support does). The question shows every field as
 * written, variables unresolved (see manager/trustText.ts), and the answer is remembered per workspace
 * (workspaceState), keyed on the server name and that text, so any change to what runs asks again.
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
		{
			modal: true,
			detail: `${description}\n\nThis is the configuration as written: variables such as \${input:…} and \${env:…} are filled in only after you allow it. Only allow servers from sources you trust: a server runs with your permissions.`,
		},
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
			this.log?.info(
				`Extension test mode: allowing workspace server '${server}' without asking (${description.split('\n')[0]})`,
			);
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
	 * Whether `server` may run `description`. False without asking when the workspace is untrusted. With `ask` false
	 * (anything but a user's Start) only a remembered decision counts and no question is shown. Concurrent calls for
	 * the same server and description share one question. Dismissing the question (Escape) is not remembered across
	 * sessions but leaves the server waiting: nothing asks again until the user starts it again.
	 */
	confirm(server: string, description: string, options: { ask: boolean } = { ask: true }): Promise<boolean> {
		if (!vscode.workspace.isTrusted) return Promise.resolve(false);
		const key = TrustDecisions.key(server, description);
		const remembered = this.decisions()[key];
		// A remembered refusal keeps the server from starting by itself, but the user's own Start asks again: they
		// may have changed their mind, and a Start that silently does nothing looks broken.
		if (remembered === true || (remembered === false && !options.ask)) return Promise.resolve(remembered);
		if (!options.ask) {
			// Start-up, a settings change or a crash restart: never a dialog the user did not ask for. A question already
			// open (the user clicked Start) is shared; otherwise the server waits in "needs trust" until the user starts it.
			const open = this.asking.get(key);
			if (open) return open;
			if (this.testMode && !(globalThis as unknown as Holder)[overrideKey])
				return this.ask(server, description).then(({ answer }) => answer ?? false);
			return Promise.resolve(false);
		}
		let pending = this.asking.get(key);
		if (!pending) {
			pending = (async () => {
				try {
					const { answer, remember } = await this.ask(server, description);
					if (answer !== undefined && remember)
						await this.state.update(STATE_KEY, { ...this.decisions(), [key]: answer });
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
