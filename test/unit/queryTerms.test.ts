import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandQuery } from '../../src/manager/context/queryTerms';
import { tokenize } from '../../src/manager/toolRanking';

/** The words a request adds at half weight, as stems. */
function added(request: string): string[] {
	const extra = expandQuery(request).find((part) => part.weight === 0.5);
	return extra ? tokenize(extra.text) : [];
}

test("a request's everyday verbs bring their synonyms at half weight, in any inflection", () => {
	const table: [string, string[]][] = [
		['fetch the report', ['retriev', 'read', 'download']],
		['edited yesterday', ['updat', 'modify', 'chang', 'patch']],
		['executing the tests', ['run', 'trigger', 'start', 'launch']],
		['cancel the build', ['stop', 'abort', 'halt']],
	];
	for (const [request, words] of table) {
		const extra = added(request);
		for (const word of words) assert.ok(extra.includes(word), `${request}: ${word} in ${extra.join(' ')}`);
		assert.equal(expandQuery(request)[0]?.text, request, 'the request itself at full weight');
	}
	assert.deepEqual(added('zebra crossing'), [], 'no group, nothing added');
});
