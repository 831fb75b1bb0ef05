// Form elicitation in the real VS Code: server-everything's `trigger-elicitation-request` asks for every field type
// of the 2025-11-25 schema, and these tests answer the real quick input with real key presses and clicks.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CallToolResult } from '../../../src/protocol/schema';
import {
	answerInputBox,
	answerQuickPick,
	quickInputAccept,
	quickInputRows,
	quickInputClose,
	screenshot,
	sleep,
	test,
	waitFor,
} from './harness';
import {
	clickClose,
	clickDecline,
	FIXTURE,
	fixtureServer,
	jsonAfter,
	needDriver,
	quickInput,
	resultText,
	serverWithTool,
	showWaiting,
	titleButtons,
	toggleRow,
	typeInto,
	waitForQuickInput,
	waitingText,
	USER_PACED,
} from './elicitationSupport';

const SERVER = 'everything';
const TOOL = 'trigger-elicitation-request';

// What each step shows (the schema's descriptions), in the server's order.
const STEP = {
	name: 'Your full, legal name',
	check: 'Agree to the terms and conditions',
	firstLine: 'Favorite first line of a story',
	email: 'Your email address',
	homepage: 'Portfolio / personal website',
	birthdate: 'Your date of birth',
	integer: 'Your favorite integer',
	number: 'Favorite number',
	friend: 'Choose your favorite friend',
	instruments: 'Choose your favorite instruments',
	hero: 'Choose your favorite hero',
	fish: 'Choose your favorite types of fish',
	pet: 'Choose your favorite type of pet',
	review: `Review what ${SERVER} will receive`,
} as const;

/** Starts the tool call; resolves (in a wrapper, so awaiting does not wait for the call) once the call is sent. */
async function startElicitation(): Promise<{ call: Promise<CallToolResult> }> {
	needDriver();
	const manager = await serverWithTool(SERVER, TOOL);
	return { call: manager.callTool(SERVER, TOOL, {}, USER_PACED) };
}

function rawResult(result: CallToolResult): { action: string; content?: Record<string, unknown> } {
	return jsonAfter(resultText(result), 'Raw result: ') as { action: string; content?: Record<string, unknown> };
}

test(
	'a form with every field type is answered through the quick input and arrives with typed values',
	async () => {
		const { call } = await startElicitation();

		const first = await waitForQuickInput(STEP.name);
		assert.match(
			first.text,
			new RegExp(`${SERVER}: Please provide inputs for the following fields:`),
			'titled with the server and the message',
		);
		assert.match(first.text, /1\/14/, 'step 1 of 14 (13 fields and the review)');
		await answerInputBox('Ada Lovelace');

		await waitForQuickInput(STEP.check);
		// "Agree to the terms" is optional with no default: it starts on "Leave unset", not on Yes.
		const focused = await waitFor(async () => (await quickInputRows()).find((row) => row.focused), {
			message: 'a focused row on the yes/no step',
		});
		assert.equal(focused.label, 'Leave unset');
		await screenshot('elicitation-optional-boolean');
		await answerQuickPick('Yes');

		const firstLine = await waitForQuickInput(STEP.firstLine);
		assert.equal(firstLine.value, 'It was a dark and stormy night.', 'the default is prefilled');
		await quickInputAccept();

		await waitForQuickInput(STEP.email);
		await typeInto('ada@');
		await waitForQuickInput('Enter an email address');
		await screenshot('elicitation-invalid-email');
		await answerInputBox('ada@example.com');

		await waitForQuickInput(STEP.homepage);
		await answerInputBox('https://example.com/ada');

		await waitForQuickInput(STEP.birthdate);
		await typeInto('1815-02-30');
		await waitForQuickInput('Enter a date as YYYY-MM-DD');
		await answerInputBox('1815-12-10');

		const integer = await waitForQuickInput(STEP.integer);
		assert.equal(integer.value, '42');
		await typeInto('500');
		await waitForQuickInput('Enter a number between 1 and 100');
		await answerInputBox('7');

		const number = await waitForQuickInput(STEP.number);
		assert.equal(number.value, '3.14');
		await answerInputBox('2.5');

		await waitForQuickInput(STEP.friend);
		await answerQuickPick('Rachel');

		const instruments = await waitForQuickInput(STEP.instruments);
		assert.deepEqual(instruments.checked, ['Guitar'], 'the default is preselected');
		await toggleRow('Piano');
		await waitForQuickInput(STEP.instruments);
		await quickInputAccept();

		await waitForQuickInput(STEP.hero);
		await answerQuickPick('Wonder Woman');

		const fish = await waitForQuickInput(STEP.fish);
		assert.deepEqual(fish.checked, ['Tuna']);
		await quickInputAccept();

		await waitForQuickInput(STEP.pet);
		await answerQuickPick('Dogs');

		const review = await waitForQuickInput(STEP.review);
		await screenshot('elicitation-review');
		assert.match(review.text, /14\/14/);
		for (const row of [
			'String: Ada Lovelace',
			'Integer: 7',
			'Untitled Multiple Select Enum: Guitar, Piano',
			'Titled Single Select Enum: Wonder Woman',
			'Legacy Titled Single Select Enum: Dogs',
		]) {
			assert.ok(review.rows.includes(row), `the review shows "${row}" (rows: ${review.rows.join(' | ')})`);
		}
		await answerQuickPick('Accept');

		const raw = rawResult(await call);
		assert.deepEqual(raw, {
			action: 'accept',
			content: {
				name: 'Ada Lovelace',
				check: true,
				firstLine: 'It was a dark and stormy night.',
				email: 'ada@example.com',
				homepage: 'https://example.com/ada',
				birthdate: '1815-12-10',
				integer: 7,
				number: 2.5,
				untitledSingleSelectEnum: 'Rachel',
				untitledMultipleSelectEnum: ['Guitar', 'Piano'],
				titledSingleSelectEnum: 'hero-3',
				titledMultipleSelectEnum: ['fish-1'],
				legacyTitledEnum: 'pet-2',
			},
		});
	},
	{ timeoutMs: 120_000 },
);

/** Answers the name, then accepts every other step as prefilled, up to the review. */
async function acceptDefaultsToReview(name: string): Promise<void> {
	await waitForQuickInput(STEP.name);
	await answerInputBox(name);
	for (const marker of [
		STEP.check,
		STEP.firstLine,
		STEP.email,
		STEP.homepage,
		STEP.birthdate,
		STEP.integer,
		STEP.number,
		STEP.friend,
		STEP.instruments,
		STEP.hero,
		STEP.fish,
		STEP.pet,
	]) {
		await waitForQuickInput(marker);
		await quickInputAccept();
	}
}

test(
	'defaults are sent as prefilled, skipped optional fields are left out, and Edit on the review changes one field',
	async () => {
		const { call } = await startElicitation();
		await acceptDefaultsToReview('Grace');
		const review = await waitForQuickInput(STEP.review);
		assert.ok(review.rows.includes('String with email format: (not set)'), `rows: ${review.rows.join(' | ')}`);
		// Enter on the yes/no step without a default left it unset: nothing is agreed to for the user.
		assert.ok(review.rows.includes('Boolean: (not set)'), `rows: ${review.rows.join(' | ')}`);
		// Choosing a field's row edits that field, then comes back to the review.
		await answerQuickPick('Integer: 42');
		const integer = await waitForQuickInput(STEP.integer);
		assert.equal(integer.value, '42');
		await answerInputBox('99');
		const again = await waitForQuickInput(STEP.review);
		assert.ok(again.rows.includes('Integer: 99'), `rows: ${again.rows.join(' | ')}`);
		await answerQuickPick('Accept');

		assert.deepEqual(rawResult(await call), {
			action: 'accept',
			content: {
				name: 'Grace',
				firstLine: 'It was a dark and stormy night.',
				integer: 99,
				number: 3.14,
				untitledSingleSelectEnum: 'Monica',
				untitledMultipleSelectEnum: ['Guitar'],
				titledSingleSelectEnum: 'hero-1',
				titledMultipleSelectEnum: ['fish-1'],
				legacyTitledEnum: 'pet-1',
			},
		});
	},
	{ timeoutMs: 120_000 },
);

test(
	'Back returns to the previous step with the answer kept; a required field cannot be left empty',
	async () => {
		const { call } = await startElicitation();
		await waitForQuickInput(STEP.name);
		await typeInto('');
		await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
		await waitForQuickInput('String is required');
		await answerInputBox('Alan');
		await waitForQuickInput(STEP.check);
		await vscode.commands.executeCommand('workbench.action.quickInputBack');
		const back = await waitForQuickInput(STEP.name);
		assert.equal(back.value, 'Alan', 'the earlier answer is kept');
		assert.match(back.text, /1\/14/);
		await clickDecline();
		assert.deepEqual(rawResult(await call), { action: 'decline' });
	},
	{ timeoutMs: 60_000 },
);

test(
	'Escape puts the form aside: the server gets no answer, the request is announced and comes back at the same step with what was typed; Decline declines',
	async () => {
		let { call } = await startElicitation();
		await waitForQuickInput(STEP.name);
		await answerInputBox('Grace');
		await waitForQuickInput(STEP.check);
		await answerQuickPick('Yes');
		await waitForQuickInput(STEP.firstLine);
		await typeInto('Once upon');
		await quickInputClose();
		let settled = false;
		void call.then(() => (settled = true));
		await waitFor(async () => (await waitingText())?.includes(`${SERVER} asks for input`), {
			message: 'the waiting form announced',
		});
		await sleep(1000);
		assert.equal(settled, false, 'hiding the form did not answer the server');
		await showWaiting();
		const again = await waitForQuickInput(STEP.firstLine);
		assert.equal(again.value, 'Once upon', 'what was typed is still there');
		assert.match(again.text, /3\/14/, 'at the same step');
		await clickDecline();
		let result = await call;
		assert.deepEqual(rawResult(result), { action: 'decline' });
		assert.equal(await waitingText(), undefined);

		({ call } = await startElicitation());
		await acceptDefaultsToReview('Barbara');
		await waitForQuickInput(STEP.review);
		await answerQuickPick('Decline');
		result = await call;
		assert.deepEqual(rawResult(result), { action: 'decline' });
		assert.match(resultText(result), /declined/);
	},
	{ timeoutMs: 120_000 },
);

test(
	'the X closes the form and answers cancel; Decline is a button of its own and answers decline',
	async () => {
		const { call } = await startElicitation();
		await waitForQuickInput(STEP.name);
		await answerInputBox('Hedy');
		await waitForQuickInput(STEP.check);
		const buttons = await titleButtons();
		assert.ok(
			buttons.some((b) => b.startsWith(`Decline: tell ${SERVER} you will not answer`)) &&
				buttons.some((b) => b.startsWith('Close without answering')),
			`the title bar offers Decline and Close apart (buttons: ${buttons.join(' | ')})`,
		);
		await screenshot('elicitation-buttons');
		await clickClose();
		assert.deepEqual(rawResult(await call), { action: 'cancel' });
		await waitFor(async () => (await quickInput()) === undefined, { message: 'the form closed' });
		assert.equal(await waitingText(), undefined, 'a closed form does not wait in the list');
	},
	{ timeoutMs: 60_000 },
);

test(
	'a second request waits until the first is answered',
	async () => {
		const manager = await serverWithTool(SERVER, TOOL);
		needDriver();
		const first = manager.callTool(SERVER, TOOL, {}, USER_PACED);
		await waitForQuickInput(STEP.name);
		const second = manager.callTool(SERVER, TOOL, {}, USER_PACED);
		let secondDone = false;
		void second.then(() => (secondDone = true));
		await answerInputBox('First');
		// The first form goes on to its next step; the second has not replaced it.
		await waitForQuickInput(STEP.check);
		assert.equal(secondDone, false);
		await clickDecline();
		assert.deepEqual(rawResult(await first), { action: 'decline' });
		const next = await waitForQuickInput(STEP.name);
		assert.equal(next.value, '', 'the second form starts fresh');
		await clickDecline();
		assert.deepEqual(rawResult(await second), { action: 'decline' });
	},
	{ timeoutMs: 60_000 },
);

test(
	'a field that asks for a secret is masked and comes with a plain warning; the review does not show it',
	async () => {
		needDriver();
		const manager = await fixtureServer('ask-for-token');
		const call = manager.callTool(FIXTURE, 'ask-for-token', {}, USER_PACED);
		const token = await waitForQuickInput('The token from your account page');
		await screenshot('elicitation-secret');
		assert.equal(token.password, true, 'typed characters are masked');
		assert.match(token.text, new RegExp(`${FIXTURE} is asking for a secret \\("API token"\\)`));
		assert.match(token.text, /must not ask for passwords, keys or tokens in a form/);
		await answerInputBox('sk-test-1234');
		await waitForQuickInput('Remember me');
		await answerQuickPick('No');
		const review = await waitForQuickInput(`Review what ${FIXTURE} will receive`);
		assert.match(review.placeholder, /includes a secret \(API token\)/);
		assert.ok(!review.text.includes('sk-test-1234'), 'the review masks the secret');
		await answerQuickPick('Accept');
		assert.deepEqual(JSON.parse(resultText(await call)), {
			action: 'accept',
			content: { apiToken: 'sk-test-1234', remember: false },
		});
	},
	{ timeoutMs: 60_000 },
);
