/** Sampling: server requests for a model's answer through `vscode.lm` (the broker is part of the Host). */
import type * as vscode from 'vscode';
import type { FeatureDeps } from '../featureDeps';
import { registerSamplingCommands, type SamplingBroker } from './sampling';

/** Registers Reset Sampling Consent and ties remembered consent to each server's definition. */
export function register(
	context: vscode.ExtensionContext,
	deps: Pick<FeatureDeps, 'manager'> & { sampling: SamplingBroker },
): void {
	const { manager, sampling } = deps;
	// Sampling consent is remembered per server definition (where it is defined, its config) and model, not per name.
	sampling.setServerIdentity((server) => manager.get(server));
	context.subscriptions.push(sampling, registerSamplingCommands(sampling));
}
