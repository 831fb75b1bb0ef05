/**
 * Pins in the extension's global storage folder (`pins/`, one file per server identity: manager/pinning/
 * folderPinStore.ts). The identity holds where the server is defined, so a workspace's server never shares pins with
 * another workspace's server of the same name. Pins that earlier versions kept in global state move to the folder the
 * first time their server is looked up, and leave global state.
 */
import * as vscode from 'vscode';
import { FolderPinStore, isPinRecord } from '../../manager/pinning/folderPinStore';
import type { PinRecord } from '../../manager/pinning/pins';

/** The global state key earlier versions kept a server's pins under. */
const LEGACY_PREFIX = 'mcpSwitchboard.pins.';

/** The pin store of this extension: its global storage's `pins/` folder, taking over what global state held. */
export function extensionPinStore(
	context: vscode.ExtensionContext,
	onError: (message: string) => void,
): FolderPinStore {
	const folder = vscode.Uri.joinPath(context.globalStorageUri, 'pins');
	const memento = context.globalState;
	return new FolderPinStore(
		folder.scheme === 'file' ? folder.fsPath : folder.path,
		{
			take(identity: string): PinRecord | undefined {
				const value = memento.get<unknown>(LEGACY_PREFIX + identity);
				if (value === undefined) return undefined;
				void memento.update(LEGACY_PREFIX + identity, undefined);
				return isPinRecord(value) ? value : undefined;
			},
		},
		onError,
	);
}
