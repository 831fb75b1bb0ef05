import assert from 'node:assert/strict';
import { test } from 'node:test';
import { elapsedText, isFinished, taskDescription, type TaskState } from '../../src/vscode/tasks/taskText';

const started = 1_000_000;

test("a live task shows its status, the server's status message, progress and elapsed time", () => {
	const entry: TaskState = {
		status: 'working',
		statusMessage: 'Synthesizing findings...',
		progress: { progressToken: 1, progress: 3, total: 4 },
		startedAt: started,
	};
	assert.equal(taskDescription(entry, started + 12_000), 'working · Synthesizing findings... · 75% · 12 s');
	assert.equal(isFinished(entry), false);
});

test('a completed task says completed and how long it took, not its last "working" status message', () => {
	const entry: TaskState = {
		status: 'completed',
		statusMessage: 'Synthesizing findings...',
		progress: { progressToken: 1, progress: 3, total: 4 },
		startedAt: started,
		finishedAt: started + 65_000,
	};
	assert.equal(taskDescription(entry, started + 999_000), 'completed in 1 min 5 s');
	assert.equal(
		taskDescription({
			status: 'cancelled',
			statusMessage: 'Analyzing…',
			startedAt: started,
			finishedAt: started + 2000,
		}),
		'cancelled after 2 s',
	);
});

test('a failed task says why and after how long', () => {
	assert.equal(
		taskDescription({
			status: 'failed',
			statusMessage: 'The backend went away',
			error: 'Task t ended with an error',
			startedAt: started,
			finishedAt: started + 3000,
		}),
		'failed · The backend went away · after 3 s',
	);
	assert.equal(
		taskDescription({ status: 'failed', error: 'boom\nstack', startedAt: started, finishedAt: started + 3000 }),
		'failed · boom · after 3 s',
	);
	assert.equal(
		taskDescription({
			status: 'unknown',
			error: "MCP server 'x': task gone",
			startedAt: started,
			finishedAt: started + 1000,
		}),
		"error · MCP server 'x': task gone · after 1 s",
	);
	assert.equal(elapsedText(2 * 3600_000 + 60_000), '2 h 1 min');
});
