import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NamedTool } from '../../src/manager/types';
import { searchTools } from '../../src/manager/context/toolSearch';
import { ToolIndexer, tokenize } from '../../src/manager/toolRanking';
import { STEM_NOT_PREFIX, stemEnd, stemWord } from '../../src/manager/wordStem';

test('stemWord: the inflections of one word meet in one stem', () => {
	const families: [string, string[]][] = [
		['chang', ['change', 'changes', 'changed', 'changing']],
		['creat', ['create', 'creates', 'created', 'creating']],
		['list', ['list', 'lists', 'listed', 'listing']],
		['entry', ['entry', 'entries']],
		['query', ['query', 'queries']],
		['star', ['star', 'stars', 'starred', 'starring']],
		['commit', ['commit', 'commits', 'committed', 'committing']],
		['clos', ['close', 'closes', 'closed', 'closing']],
		['upload', ['upload', 'uploads', 'uploaded', 'uploading']],
		['fill', ['fill', 'fills', 'filled', 'filling']],
		['issu', ['issue', 'issues']],
	];
	for (const [stem, words] of families)
		for (const word of words) assert.equal(stemWord(word), stem, `${word} → ${stem}`);
});

test('stemWord: words that only look inflected, and short words, stay apart', () => {
	const kept: [string, string][] = [
		['string', 'string'], // -ing with no vowel before it
		['thing', 'thing'], // too short a stem
		['need', 'need'], // -eed
		['speed', 'speed'],
		['class', 'class'], // -ss is no plural
		['address', 'address'],
		['red', 'red'], // fewer than four letters
		['add', 'add'],
		['use', 'use'],
		['fill', 'fill'], // a doubled l stays ...
		['file', 'fil'], // ... so "fill" and "file" differ
		['pass', 'pass'],
		['passed', 'pass'],
	];
	for (const [word, stem] of kept) assert.equal(stemWord(word), stem, word);
	assert.notEqual(stemWord('filled'), stemWord('filed'));
});

test('stemEnd: the stem where the word stands in a text, capitals folded; -ies is the one stem that is no prefix', () => {
	const text = 'Open the CHANGED Files, then Entries and Queries; a Class';
	const table: [string, string][] = [
		['Open', 'Open'],
		['CHANGED', 'CHANG'],
		['Files', 'Fil'],
		['Class', 'Class'],
	];
	for (const [word, stem] of table) {
		const start = text.indexOf(word);
		assert.equal(text.slice(start, stemEnd(text, start, start + word.length)), stem, word);
		assert.equal(stemWord(word.toLowerCase()), stem.toLowerCase(), `${word}: stemWord agrees`);
	}
	for (const word of ['Entries', 'Queries']) {
		const start = text.indexOf(word);
		assert.equal(stemEnd(text, start, start + word.length), STEM_NOT_PREFIX, word);
	}
	assert.equal(stemWord('lies'), 'lie', 'a four-letter -ies is a plural s');
});

test('tokenize: stop words (the usual English list and indefinite pronouns) are dropped in any inflection', () => {
	const table: [string, string[]][] = [
		['show me everything about the payments team', ['payment', 'team']],
		['Does anyone know which of these files changed?', ['know', 'fil', 'chang']],
		['forget something before lunch', ['forget', 'lunch']],
		['list_open_issues', ['list', 'open', 'issu']],
		['getFileContents', ['fil', 'content']],
		['created-pull-requests', ['creat', 'pull', 'request']],
	];
	for (const [text, tokens] of table) assert.deepEqual(tokenize(text), tokens, text);
});

function named(server: string, name: string, description: string): NamedTool {
	return {
		server,
		qualifiedName: `mcp__${server}__${name}`,
		tool: { name, description, inputSchema: { type: 'object' } },
	};
}

test('a search meets the tool whatever the form of its words, on the index side as on the request side', () => {
	const tools = [
		named('git', 'list_commits', 'Lists the commits of a branch'),
		named('git', 'starRepository', 'Stars a repository for the user'),
		named('tracker', 'close-ticket', 'Closes a ticket as completed'),
		named('files', 'write_file', 'Writes text to a file'),
		named('everything', 'echo', 'Echoes back the input'),
	];
	const indexer = new ToolIndexer();
	for (const server of new Set(tools.map((t) => t.server)))
		indexer.update(
			server,
			tools.filter((t) => t.server === server),
		);
	const first = (query: string) => searchTools(tools, query, 1, indexer)[0]?.tool.name;
	assert.equal(first('what was committed on main?'), 'list_commits');
	assert.equal(first('which repositories have I starred'), 'starRepository');
	assert.equal(first('closing tickets'), 'close-ticket');
	assert.equal(first('writing a file'), 'write_file');
	assert.deepEqual(searchTools(tools, 'everything about it', 5, indexer), [], 'no word but stop words: nothing found');
});
