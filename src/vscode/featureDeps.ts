import type { CommandBase } from './commandTarget';
import type { BlobFiles } from './shared/blobFiles';
import type { ResultDocuments } from './shared/resultDocument';
import type { ServerConfiguration } from './settings';

/**
 * What `activate()` hands every feature's `register(context, deps)`: the Manager, the logs, the settings, the shared
 * result documents and the ways forward. A feature that needs another feature's object (the task list, tool consent)
 * gets it as an extra field of its own deps type, from what that feature's `register` returned, never by importing it.
 */
export interface FeatureDeps extends CommandBase {
	configuration: ServerConfiguration;
	/** Result documents (tool results, prompts, task results). */
	results: ResultDocuments;
	/** Where images and other binary results of this window are saved. */
	blobs: BlobFiles;
	/** This extension's version (package.json), as servers and apps are told. */
	version: string;
}
