// The Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): a server's skills as entries with their
// frontmatter and a complete manifest of digests and sizes (`skills/list`, `skills/get`), and loading one on demand
// with every check the extension asks of a host: nothing fetched ahead of need, the bytes of SKILL.md verified
// against the entry's size and SHA-256 digest, its frontmatter against the entry's, and the per-skill limits.
// Spec: https://github.com/modelcontextprotocol/ext-skills/blob/main/specification/stable/skills.mdx
import { createHash } from 'node:crypto';
import type { McpClient } from '../../protocol/client';
import type { RequestOptions } from '../../protocol/client';
import { isRecord } from '../../common/records';

/** The extension's identifier in `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** The name of the tool that loads a skill into a model's context. */
export const LOAD_SKILL_TOOL = 'load_skill';
/** The extension's limits per skill, which every host must accept. */
export const MAX_SKILL_RESOURCES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** A file of a skill, with the digest and size of its raw bytes. */
export interface SkillResource {
	uri: string;
	digest: string;
	size: number;
}

/** One skill as `skills/list` and `skills/get` describe it. */
export interface Skill {
	/** The URI of its SKILL.md. */
	uri: string;
	frontmatter: { name: string; description: string } & Record<string, unknown>;
	resources: SkillResource[] | 'dynamic';
}

/** A valid entry, or why not (the extension: an entry without valid `resources` must not be loaded). */
export function readSkillEntry(value: unknown): Skill | string {
	if (!isRecord(value) || typeof value.uri !== 'string') return 'an entry without a uri';
	const frontmatter = value.frontmatter;
	if (!isRecord(frontmatter) || typeof frontmatter.name !== 'string' || typeof frontmatter.description !== 'string')
		return `${value.uri}: frontmatter without a name and description`;
	const resources = value.resources;
	if (resources !== 'dynamic') {
		if (!Array.isArray(resources)) return `${value.uri}: no resources manifest`;
		for (const entry of resources)
			if (
				!isRecord(entry) ||
				typeof entry.uri !== 'string' ||
				typeof entry.size !== 'number' ||
				typeof entry.digest !== 'string' ||
				!/^sha256:[0-9a-f]{64}$/.test(entry.digest)
			)
				return `${value.uri}: a manifest entry without a uri, size and sha256 digest`;
	}
	return value as unknown as Skill;
}

/** Every skill `client`'s server lists (every page); invalid entries are dropped and reported through `problem`. */
export async function listSkills(
	client: McpClient,
	options?: RequestOptions,
	problem: (message: string) => void = () => undefined,
): Promise<Skill[]> {
	if (!client.serverExtension(SKILLS_EXTENSION)) return [];
	const skills: Skill[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < 100; page++) {
		const result = (await client.extensionRequest(
			SKILLS_EXTENSION,
			'skills/list',
			cursor ? { cursor } : {},
			options,
		)) as { skills?: unknown; nextCursor?: unknown } | undefined;
		for (const value of Array.isArray(result?.skills) ? result.skills : []) {
			const entry = readSkillEntry(value);
			if (typeof entry === 'string') problem(`skills/list: ${entry}; left out`);
			else skills.push(entry);
		}
		cursor = typeof result?.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
		if (!cursor) break;
	}
	return skills;
}

/** The `sha256:{hex}` digest of `bytes`. */
export function digestOf(bytes: Uint8Array): string {
	return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * The YAML frontmatter of a SKILL.md as flat `key: value` pairs (quoted or plain scalars; nested maps and lists are
 * kept as their text). Enough to compare `name` and `description` with the entry, which is what a host acts on.
 */
export function parseFrontmatter(markdown: string): Record<string, string> | undefined {
	const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(markdown);
	if (!match) return undefined;
	const fields: Record<string, string> = {};
	for (const line of match[1]!.split(/\r?\n/)) {
		const pair = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
		if (!pair) continue;
		let value = pair[2]!.trim();
		if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))
			value = value.slice(1, -1);
		fields[pair[1]!] = value;
	}
	return fields;
}

/** A skill loaded and verified: the text of its SKILL.md. */
export interface LoadedSkill {
	skill: Skill;
	text: string;
	bytes: number;
}

/**
 * Loads `skill` now (never ahead of need): checks the limits on its manifest, reads its SKILL.md, and verifies the
 * bytes against the manifest's size and digest and the frontmatter against the entry's. Throws an Error that says
 * what failed; unverified content is never returned. `dynamic` skills are refused (they cannot be verified).
 */
export async function loadSkill(client: McpClient, skill: Skill, options?: RequestOptions): Promise<LoadedSkill> {
	const name = skill.frontmatter.name;
	if (skill.resources === 'dynamic')
		throw new Error(`skill ${name}: its content is generated ("dynamic"), so it cannot be verified; not loaded`);
	if (skill.resources.length > MAX_SKILL_RESOURCES)
		throw new Error(`skill ${name}: ${skill.resources.length} files, more than the ${MAX_SKILL_RESOURCES} allowed`);
	const total = skill.resources.reduce((sum, entry) => sum + entry.size, 0);
	if (total > MAX_SKILL_BYTES) throw new Error(`skill ${name}: ${total} bytes, more than the 16 MiB allowed`);
	const manifest = skill.resources.find((entry) => entry.uri === skill.uri);
	if (!manifest) throw new Error(`skill ${name}: its manifest does not list ${skill.uri}`);
	const read = await client.readResource(skill.uri, options);
	const content = read.contents.find((entry) => entry.uri === skill.uri) ?? read.contents[0];
	const record = (content ?? {}) as Record<string, unknown>;
	const bytes =
		typeof record.text === 'string'
			? Buffer.from(record.text, 'utf8')
			: typeof record.blob === 'string'
				? Buffer.from(record.blob, 'base64')
				: undefined;
	if (!bytes) throw new Error(`skill ${name}: ${skill.uri} came back empty`);
	if (bytes.byteLength !== manifest.size)
		throw new Error(
			`skill ${name}: SKILL.md is ${bytes.byteLength} bytes, the manifest says ${manifest.size}; not loaded`,
		);
	const digest = digestOf(bytes);
	if (digest !== manifest.digest)
		throw new Error(`skill ${name}: SKILL.md's digest ${digest} is not the manifest's ${manifest.digest}; not loaded`);
	const text = bytes.toString('utf8');
	const frontmatter = parseFrontmatter(text);
	for (const key of ['name', 'description'] as const)
		if (frontmatter?.[key] !== skill.frontmatter[key])
			throw new Error(`skill ${name}: SKILL.md's ${key} differs from the listing's; not loaded`);
	return { skill, text, bytes: bytes.byteLength };
}

/** The definition of {@link LOAD_SKILL_TOOL} as a model receives it, naming the skills it can load. */
export function loadSkillDefinition(skills: readonly { server: string; skill: Skill }[]): {
	name: string;
	description: string;
	inputSchema: object;
} {
	const list = skills
		.map(
			({ server, skill }) =>
				`${server}/${skill.frontmatter.name}: ${skill.frontmatter.description.replace(/\s+/g, ' ').slice(0, 200)}`,
		)
		.join('; ');
	return {
		name: LOAD_SKILL_TOOL,
		description: `Loads a skill (instructions for a task, from an MCP server) into the conversation when the task needs it. Available: ${list}`,
		inputSchema: {
			type: 'object',
			properties: { skill: { type: 'string', description: 'The skill as server/name, e.g. "docs/release-notes".' } },
			required: ['skill'],
		},
	};
}

const listed = new WeakMap<McpClient, Promise<Skill[]>>();

/**
 * The skills of `client`'s server, listed once per connection (only the entries: no file is fetched until a skill
 * is loaded). A failed listing is forgotten, so the next need asks again.
 */
export function skillsOf(client: McpClient, problem?: (message: string) => void): Promise<Skill[]> {
	let skills = listed.get(client);
	if (!skills) {
		skills = listSkills(client, undefined, problem);
		listed.set(client, skills);
		skills.catch(() => listed.delete(client));
	}
	return skills;
}

/**
 * Loads the skill `name` of `client`'s server (its listing entry found by name; the listing is fetched once per
 * connection, SKILL.md now): for a skill the user chose (a document, an attachment). Throws an Error that says what
 * failed, like {@link loadSkill}.
 */
export async function loadSkillNamed(client: McpClient, name: string, options?: RequestOptions): Promise<LoadedSkill> {
	const skill = (await skillsOf(client)).find((entry) => entry.frontmatter.name === name);
	if (!skill) throw new Error(`the server lists no skill named "${name}"`);
	return loadSkill(client, skill, options);
}
