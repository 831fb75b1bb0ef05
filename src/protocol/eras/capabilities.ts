/**
 * The capabilities a client declares, built from the handlers the host supplied: in `initialize` (legacy) or in every
 * request's `_meta` (2026-07-28). Each era adds its own parts; what both share is built here once.
 */
import type { ClientHandlers } from '../clientOptions';
import type { ClientCapabilities } from '../schema';

/**
 * Capabilities only for the handlers supplied. `roots` is the era's roots entry; `ownExtensions` the extensions the
 * client itself implements in that era, to which the host's (MCP Apps) are added, never in their place: the host's
 * entry once replaced the tasks entry, and a server that requires tasks refused every call.
 */
export function sharedCapabilities(
	handlers: ClientHandlers,
	roots: NonNullable<ClientCapabilities['roots']>,
	ownExtensions: Record<string, object>,
): ClientCapabilities {
	const capabilities: ClientCapabilities = {};
	if (handlers.roots) {
		capabilities.roots = roots;
	}
	if (handlers.sampling) {
		capabilities.sampling = handlers.samplingTools ? { tools: {} } : {};
	}
	if (handlers.elicitation) {
		capabilities.elicitation = handlers.elicitationUrl ? { form: {}, url: {} } : { form: {} };
	}
	const extensions: Record<string, object> = { ...ownExtensions };
	if (handlers.extensions) Object.assign(extensions, handlers.extensions);
	if (Object.keys(extensions).length > 0) capabilities.extensions = extensions;
	return capabilities;
}
