/**
 * Which tools a workspace has switched off for chat models, read from its settings values: the list in
 * `mcpSwitchboard.tools.disabled`, or, while `mcpSwitchboard.tools.activeProfile` names a saved profile, that
 * profile's list in `mcpSwitchboard.tools.profiles`. Shared by the extension (which reads the values through
 * VS Code's configuration) and the command line (which reads `.vscode/settings.json`), so both agree on what is off.
 */

/** The setting keys (package.json). */
export const EnablementSettings = {
	disabled: 'mcpSwitchboard.tools.disabled',
	profiles: 'mcpSwitchboard.tools.profiles',
	activeProfile: 'mcpSwitchboard.tools.activeProfile',
} as const;

/** Server name → names of its tools that are switched off. */
export type DisabledTools = Record<string, string[]>;

/** A settings value as a DisabledTools: anything not an object of string arrays is dropped (settings are hand-edited). */
export function parseDisabledTools(value: unknown): DisabledTools {
	const result: DisabledTools = {};
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return result;
	for (const [server, tools] of Object.entries(value as Record<string, unknown>)) {
		if (Array.isArray(tools)) result[server] = tools.filter((tool): tool is string => typeof tool === 'string');
	}
	return result;
}

/** The `mcpSwitchboard.tools.profiles` value: profile name → its switched-off tools. */
export function parseToolProfiles(value: unknown): Record<string, DisabledTools> {
	const profiles: Record<string, DisabledTools> = {};
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return profiles;
	for (const [name, list] of Object.entries(value as Record<string, unknown>))
		profiles[name] = parseDisabledTools(list);
	return profiles;
}

/** The active profile's name: `activeProfile` when it names a saved profile, else undefined (the workspace's own list). */
export function activeToolProfile(activeProfile: unknown, profiles: Record<string, DisabledTools>): string | undefined {
	return typeof activeProfile === 'string' && activeProfile !== '' && Object.hasOwn(profiles, activeProfile)
		? activeProfile
		: undefined;
}

/** What is switched off: the active profile's list, or the workspace's own list when no saved profile is active. */
export function activeDisabledTools(values: { disabled: unknown; profiles: unknown; activeProfile: unknown }): {
	profile: string | undefined;
	disabled: DisabledTools;
} {
	const profiles = parseToolProfiles(values.profiles);
	const profile = activeToolProfile(values.activeProfile, profiles);
	return { profile, disabled: profile !== undefined ? (profiles[profile] ?? {}) : parseDisabledTools(values.disabled) };
}
