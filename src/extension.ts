import * as vscode from 'vscode';

/** The composition root: everything created here goes into context.subscriptions. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
	const output = vscode.window.createOutputChannel('MCP Switchboard', { log: true });
	context.subscriptions.push(output);
	output.info('MCP Switchboard activated');
}

export function deactivate(): void {}
