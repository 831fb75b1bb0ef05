import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { ListingSummary } from '../../src/manager/listingCache';
import { SummaryIndex } from '../../src/manager/summaryIndex';

const scratch = mkdtempSync(join(tmpdir(), 'summary-index-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const summary = (...toolNames: string[]): ListingSummary => ({
	listedAt: 1_700_000_000_000,
	toolNames,
	prompts: 1,
	resources: 2,
	resourceTemplates: 0,
});

const onDisk = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { format: number; summaries: object };

test('a burst of saves is one file, read back whole by the next window', async () => {
	const file = join(scratch, 'burst', 'summaries.json');
	const index = new SummaryIndex(file);
	assert.equal(index.get('a'), undefined, 'nothing kept yet, and no file needed');
	for (let i = 0; i < 50; i++) index.set(`s${i}`, summary(`tool_${i}`));
	assert.deepEqual(index.get('s7'), summary('tool_7'), 'a save is seen at once');
	await index.flush();
	assert.equal(Object.keys(onDisk(file).summaries).length, 50);
	assert.deepEqual(readdirSync(join(scratch, 'burst')), ['summaries.json'], 'no temporary file left behind');
	const next = new SummaryIndex(file);
	assert.deepEqual(next.get('s49'), summary('tool_49'));
});

test('two windows sharing the file keep what each other saved; a drop is kept too', async () => {
	const file = join(scratch, 'shared.json');
	const first = new SummaryIndex(file);
	const second = new SummaryIndex(file);
	first.set('one', summary('a'));
	first.set('gone', summary('b'));
	await first.flush();
	// The second window read nothing before the first wrote: its write must not drop the first window's summaries.
	assert.equal(second.get('two'), undefined);
	second.set('two', summary('c'));
	await second.flush();
	first.delete('gone');
	await first.flush();
	const third = new SummaryIndex(file);
	assert.deepEqual(third.get('one'), summary('a'));
	assert.deepEqual(third.get('two'), summary('c'));
	assert.equal(third.get('gone'), undefined);
});

test('a damaged file is said once and read as empty; entries of another shape or format are left out', async () => {
	const file = join(scratch, 'damaged.json');
	writeFileSync(file, '{"format":1,"summaries":{"ok":');
	const problems: string[] = [];
	const index = new SummaryIndex(file, (message) => problems.push(message));
	assert.equal(index.get('ok'), undefined);
	assert.equal(index.get('other'), undefined);
	assert.equal(problems.length, 1);
	assert.match(problems[0]!, /listing summaries .*damaged\.json.* unreadable/);
	index.set('new', summary('x'));
	await index.flush();
	assert.deepEqual(Object.keys(onDisk(file).summaries), ['new'], 'written again whole');

	writeFileSync(
		file,
		JSON.stringify({
			format: 1,
			summaries: { good: summary('t'), noNames: { listedAt: 1 }, badName: { ...summary(), toolNames: [3] } },
		}),
	);
	const shaped = new SummaryIndex(file);
	assert.deepEqual(shaped.get('good'), summary('t'));
	assert.equal(shaped.get('noNames'), undefined);
	assert.equal(shaped.get('badName'), undefined);

	writeFileSync(file, JSON.stringify({ format: 2, summaries: { good: summary('t') } }));
	assert.equal(new SummaryIndex(file).get('good'), undefined, 'a newer format is not read as this one');
});

test('dropping what was never kept writes nothing', async () => {
	const file = join(scratch, 'never.json');
	const index = new SummaryIndex(file);
	index.delete('nobody');
	await index.flush();
	assert.equal(existsSync(file), false);
});
