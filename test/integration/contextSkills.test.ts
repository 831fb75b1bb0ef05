// Skills (SEP-2640) as a host must take them: a server declaring the extension lists its skills with digests and
// sizes, nothing is read until a skill is loaded, and a loaded SKILL.md is verified (size, SHA-256 digest,
// frontmatter) so that tampered content never reaches a model.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import type { Host } from '../../src/manager/host';
import { Manager } from '../../src/manager/manager';
import {
	loadSkill,
	loadSkillNamed,
	parseFrontmatter,
	readSkillEntry,
	skillsOf,
} from '../../src/manager/context/skills';
import { everythingMain } from '../fixtures/everythingHttp';

const contextServer = join(process.cwd(), 'test/fixtures/servers/contextServer.js');
const logger = new MemoryLogger('info');
const host: Host = { logger: () => logger, roots: () => [] };
const manager = new Manager(host);

async function reads(server: string): Promise<number> {
	const result = await manager.callTool(server, 'reads', {});
	return Number((result.content?.[0] as { text?: string } | undefined)?.text);
}

before(async () => {
	const stdio = (name: string, args: string[]) => ({
		name,
		config: { type: 'stdio' as const, command: process.execPath, args },
		source: { kind: 'api' as const, label: 'test' },
		workspaceDefined: false,
	});
	await manager.reconcile([
		stdio('docs', [contextServer]),
		stdio('tampered', [contextServer, '--tamper']),
		stdio('everything', [everythingMain]),
	]);
	for (const name of ['docs', 'tampered', 'everything']) assert.equal(manager.get(name)?.state.kind, 'running');
});

after(() => manager.dispose());

test('a server that declares the extension lists its skills; none of its files is read until one is loaded', async () => {
	const skills = await skillsOf(manager.client('docs'));
	assert.deepEqual(
		skills.map((skill) => [skill.uri, skill.frontmatter.name]),
		[['skill://release-notes/SKILL.md', 'release-notes']],
	);
	assert.equal(await reads('docs'), 0, 'listing fetched no file');
	const loaded = await loadSkill(manager.client('docs'), skills[0]!);
	assert.match(loaded.text, /heliotrope/);
	assert.equal(loaded.bytes, (skills[0]!.resources as { size: number }[])[0]!.size);
	assert.equal(await reads('docs'), 1);
	assert.deepEqual(await skillsOf(manager.client('everything')), [], 'a server without the extension has none');
});

test('content that does not match the manifest is refused', async () => {
	const [skill] = await skillsOf(manager.client('tampered'));
	assert.ok(skill);
	await assert.rejects(
		loadSkill(manager.client('tampered'), skill),
		/SKILL\.md's digest sha256:[0-9a-f]{64} is not the manifest's/,
	);
	await assert.rejects(
		loadSkill(manager.client('docs'), {
			...skill,
			frontmatter: { ...skill.frontmatter, description: 'Something else' },
		}),
		/description differs from the listing's; not loaded/,
	);
	await assert.rejects(loadSkill(manager.client('docs'), { ...skill, resources: 'dynamic' }), /cannot be verified/);
});

test('entries are checked as the extension requires; frontmatter is read from SKILL.md', () => {
	const problem = (entry: unknown): string => {
		const read = readSkillEntry(entry);
		return typeof read === 'string' ? read : 'valid';
	};
	assert.match(
		problem({ uri: 'skill://a/SKILL.md', frontmatter: { name: 'a', description: 'd' } }),
		/no resources manifest/,
	);
	const badDigest = {
		uri: 'skill://a/SKILL.md',
		frontmatter: { name: 'a', description: 'd' },
		resources: [{ uri: 'x', size: 1, digest: 'md5:00' }],
	};
	assert.match(problem(badDigest), /sha256 digest/);
	assert.deepEqual(parseFrontmatter('---\nname: a\ndescription: "Quoted: yes"\n---\n# A'), {
		name: 'a',
		description: 'Quoted: yes',
	});
});

test('a skill the user chose is loaded by its name, verified; an unknown name or tampered content says what failed', async () => {
	const before = await reads('docs');
	const loaded = await loadSkillNamed(manager.client('docs'), 'release-notes');
	assert.equal(loaded.skill.frontmatter.name, 'release-notes');
	assert.match(loaded.text, /^---\nname: release-notes\n[\s\S]*heliotrope/);
	assert.equal(await reads('docs'), before + 1, 'SKILL.md read once, when loaded');
	await assert.rejects(loadSkillNamed(manager.client('docs'), 'no-such-skill'), /lists no skill named "no-such-skill"/);
	await assert.rejects(loadSkillNamed(manager.client('tampered'), 'release-notes'), /digest .* is not the manifest's/);
	await assert.rejects(
		loadSkillNamed(manager.client('everything'), 'release-notes'),
		/lists no skill named/,
		'a server without the extension lists none',
	);
});
