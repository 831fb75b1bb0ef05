/**
 * The steps before an install writes anything, in the order that lets a bad case stop early: the plan from the
 * server.json (installPlan.ts), its runtime on PATH, and for an mcpb package the download, the checksum and the
 * unpacking (mcpb.ts). Every failure is an Error whose message says what and why, and that nothing was installed.
 */
import { completeBundlePlan, downloadBundle, unpackBundle } from './mcpb';
import { planInstall, type InstallPlan } from './installPlan';
import type { RegistryListing } from './registryClient';
import { findOnPath, missingRuntimeMessage } from './runtimes';

export interface PrepareOptions {
	/** Where mcpb bundles are unpacked (the extension's global storage, the command line's state folder). */
	storage: string;
	/** Which of `installOptions` to use; the first supported one by default. */
	option?: number;
	/** The PATH to look for the runtime in (tests); the process's by default. */
	env?: NodeJS.ProcessEnv;
	fetch?: typeof fetch;
	signal?: AbortSignal;
}

/** A runtime that is not on PATH. */
export class MissingRuntimeError extends Error {
	constructor(
		readonly runtime: string,
		message: string,
	) {
		super(message);
		this.name = 'MissingRuntimeError';
	}
}

function checkRuntime(plan: InstallPlan, server: string, env: NodeJS.ProcessEnv | undefined): void {
	if (plan.runtime && !findOnPath(plan.runtime, env))
		throw new MissingRuntimeError(plan.runtime, missingRuntimeMessage(server, plan.runtime));
}

/** The plan for `listing`, checked and (for a bundle) downloaded, verified and unpacked. Throws on any bad case. */
export async function prepareInstall(listing: RegistryListing, options: PrepareOptions): Promise<InstallPlan> {
	const name = listing.server.name;
	const plan = planInstall(listing.server, listing.registry, options.option);
	checkRuntime(plan, name, options.env);
	if (!plan.bundle) return plan;
	const bytes = await downloadBundle(plan.bundle.url, plan.bundle.sha256, {
		fetch: options.fetch,
		signal: options.signal,
	});
	const { dir, manifest } = await unpackBundle(bytes, options.storage, plan.key);
	const completed = completeBundlePlan(plan, dir, manifest);
	checkRuntime(completed, name, options.env);
	return completed;
}
