// The words a person uses for a task are often not the words of the tool that does it ("folder" for a tool about
// directories, "remember" for a knowledge graph's entities). A search for tools adds, beside the request's own words
// (weight 1), the other words of each small group of everyday synonyms it touches (weight 0.5), so BM25 can meet the
// tool's vocabulary (inflections are met by stemming, wordStem.ts). General groups, no per-server words.
import { tokenize } from '../toolRanking';

/** Groups of words that name the same thing in requests and in tool descriptions. */
const GROUPS: readonly string[] = [
	// The everyday verbs of tools ("get", "show" and "set" are stop words: every tool gets, shows or sets).
	'fetch retrieve read download',
	'update edit modify change patch',
	'run execute trigger start launch',
	'stop cancel abort halt',
	'folder directory dir',
	'delete remove forget erase drop discard',
	'create make new add',
	'find search look lookup locate',
	'list enumerate overview',
	'read view content',
	'write save store',
	'rename move',
	'remember memory knowledge entity observation fact recall',
	'link relation relationship connection',
	'bug issue ticket problem',
	'pr pull merge',
	'repo repository project',
	'message post send chat say',
	'comment reply respond answer',
	'react reaction emoji thumbs',
	'picture image screenshot photo capture',
	'web internet online',
	'website site page url browser',
	'go navigate visit goto',
	'back previous history',
	'drive route directions travel trip way',
	'coordinate geocode latitude longitude location position',
	'address place location',
	'altitude elevation height high',
	'distance far duration long',
	'row table sql database query record',
	'sum add plus total addition',
	'size info metadata modified changed',
	'type enter input fill write',
	'click press tap button',
	'tab window',
	'dialog alert popup confirm prompt',
	'dropdown select option choose pick',
	'wait until appear',
	'log logs output error console',
	'release version',
	'notification inbox unread',
	'star favorite bookmark',
	'teammate member team people user',
	'think reason reasoning step plan',
	'doc docs documentation reference api manual',
	'research investigate study',
	'crawl spider',
	'extract scrape text',
	'workflow action ci pipeline job',
	'blame author wrote line',
	'environment env variable',
	'echo repeat',
	'leak secret credential',
	'vulnerability security advisory',
	'close closed completed state done',
	'review approve reviewer',
	'branch fork',
	'commit change diff',
];

const groupsOf = new Map<string, string[]>();
for (const group of GROUPS) {
	const words = tokenize(group);
	for (const word of words) groupsOf.set(word, [...(groupsOf.get(word) ?? []), ...words.filter((w) => w !== word)]);
}

/** The query for a tool search: the request (weight 1), then its words' synonyms (weight 0.5). */
export function expandQuery(text: string): { text: string; weight: number }[] {
	const extra = new Set<string>();
	for (const word of tokenize(text)) {
		for (const synonym of groupsOf.get(word) ?? []) extra.add(synonym);
	}
	return extra.size === 0
		? [{ text, weight: 1 }]
		: [
				{ text, weight: 1 },
				{ text: [...extra].join(' '), weight: 0.5 },
			];
}
