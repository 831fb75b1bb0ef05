/**
 * Answers `${input:id}` for server configs, as VS Code's mcp.json does: `promptString` with an input box
 * (`password: true` hides the typing, is asked once and kept in SecretStorage), `pickString` with a quick pick.
 * Other answers are kept for the session, so a settings change does not ask again.
 */
import * as vscode from 'vscode';
import type { InputDefinition } from '../manager/config';

/** The secret-storage scope of user-level inputs (`mcpSwitchboard.inputs`): one for every window, unlike workspace inputs. */
export const USER_INPUT_SCOPE = 'user';

/** The secret-storage scope of this window's workspace inputs (the workspace file or its first folder). */
export function workspaceInputScope(): string {
	return (vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString() ?? 'no-workspace';
}

/** Where a password input's answer is kept in SecretStorage. */
export function inputSecretKey(scope: string, id: string): string {
	return `mcpSwitchboard.input:${scope}:${id}`;
}

export class InputValues {
	private readonly session = new Map<string, string>();
	/** The ids of password inputs answered in this session, whose values a recorded session must not hold. */
	private readonly passwordIds = new Set<string>();
	private readonly asking = new Map<string, Promise<string | undefined>>();

	/** `scope` separates workspaces (the workspace file or first folder URI), so the same id in two projects differs. */
	constructor(
		private readonly secrets: vscode.SecretStorage,
		private readonly scope: () => string,
	) {}

	private secretKey(id: string): string {
		return inputSecretKey(this.scope(), id);
	}

	/**
	 * The value of an input, asking the user when it is not known yet. Resolves undefined when the user cancels
	 * or `definition` is undefined (the id is not declared in any "inputs"). Concurrent asks for one id share a question.
	 */
	get(id: string, definition: InputDefinition | undefined): Promise<string | undefined> {
		if (!definition) return Promise.resolve(undefined);
		const known = this.session.get(id);
		if (known !== undefined) return Promise.resolve(known);
		let pending = this.asking.get(id);
		if (!pending) {
			pending = this.ask(definition).finally(() => this.asking.delete(id));
			this.asking.set(id, pending);
		}
		return pending;
	}

	private async ask(definition: InputDefinition): Promise<string | undefined> {
		const title = `MCP server input: ${definition.id}`;
		let value: string | undefined;
		if (definition.type === 'pickString') {
			value = await vscode.window.showQuickPick(definition.options, {
				title,
				placeHolder: definition.description ?? definition.id,
				ignoreFocusOut: true,
			});
		} else if (definition.password) {
			value = await this.secrets.get(this.secretKey(definition.id));
			if (value === undefined) {
				value = await vscode.window.showInputBox({
					title,
					prompt: definition.description,
					value: definition.default,
					password: true,
					ignoreFocusOut: true,
				});
				if (value !== undefined) await this.secrets.store(this.secretKey(definition.id), value);
			}
		} else {
			value = await vscode.window.showInputBox({
				title,
				prompt: definition.description,
				value: definition.default,
				ignoreFocusOut: true,
			});
		}
		if (value !== undefined) this.session.set(definition.id, value);
		if (value !== undefined && definition.type === 'promptString' && definition.password)
			this.passwordIds.add(definition.id);
		return value;
	}

	/** The values of the password inputs known in this session (redacted from recorded sessions). */
	secretValues(): string[] {
		return [...this.passwordIds].flatMap((id) => this.session.get(id) ?? []);
	}

	/** Forgets the answers of this session and the stored passwords of `ids`. */
	async clear(ids: readonly string[]): Promise<void> {
		this.session.clear();
		await Promise.all(ids.map((id) => this.secrets.delete(this.secretKey(id))));
	}
}
