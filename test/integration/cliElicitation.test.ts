// The command line answering a server's questions (elicitation), run as a user runs it: dist/cli.js in a workspace
// folder against servers nobody here wrote (server-everything's form and URL tools, the TypeScript SDK's
// elicitationFormExample with a password field). Without a terminal (as in CI) the form is declined with a message,
// or answered by --answer; in a real pseudo-terminal (util-linux `script`) a person answers field by field.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../fixtures/everythingHttp';
import { waitForOutput } from '../fixtures/waitForOutput';
import { runToEnd } from '../fixtures/runToEnd';

const cli = join(process.cwd(), 'dist/cli.js');
const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const sdkFormExample = join(
	process.cwd(),
	'node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/elicitationFormExample.js',
);
const scratch = mkdtempSync(join(tmpdir(), 'cli-elicit-'));
const env = { XDG_CACHE_HOME: join(scratch, 'cache'), MCP_SWITCHBOARD_NO_BROWSER: '1' };

let formServer: ChildProcess | undefined;
let formServerUrl = '';
before(async () => {
	const port = await freePort();
	formServer = spawn(process.execPath, [sdkFormExample], {
		env: { ...process.env, PORT: String(port) },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	await waitForOutput(formServer, /running on http/, 'the SDK elicitationFormExample', 30_000);
	formServerUrl = `http://127.0.0.1:${port}/mcp`;
});
after(() => {
	formServer?.kill();
	rmSync(scratch, { recursive: true, force: true });
});

let counter = 0;
function workspace(servers: Record<string, unknown>): string {
	const dir = join(scratch, `ws-${++counter}`);
	mkdirSync(join(dir, '.vscode'), { recursive: true });
	writeFileSync(join(dir, '.vscode/mcp.json'), JSON.stringify({ servers }));
	return dir;
}
const everythingWorkspace = () => workspace({ everything: { command: process.execPath, args: [everything, 'stdio'] } });

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs the CLI with stdin not a terminal (as in CI). */
function run(args: string[], cwd: string): Promise<Run> {
	return runToEnd(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ...env }, timeoutMs: 60_000 });
}

function shellQuote(text: string): string {
	return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs the CLI in a real pseudo-terminal (`script -qec`), as a person at a terminal: each step waits until the
 * screen shows `waitFor` (after the previous step's), then types `answer` and Enter. Resolves the whole screen.
 */
function runInTerminal(args: string[], cwd: string, steps: [waitFor: string, answer: string][]): Promise<Run> {
	const command = [process.execPath, cli, ...args].map(shellQuote).join(' ');
	return new Promise((resolve, reject) => {
		const child = spawn('script', ['-qec', command, '/dev/null'], {
			cwd,
			env: { ...process.env, ...env, TERM: 'dumb' },
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		let screen = '';
		let next = 0;
		let seen = 0;
		const onData = (d: Buffer) => {
			screen += d.toString();
			while (next < steps.length) {
				const [waitFor, answer] = steps[next]!;
				const at = screen.indexOf(waitFor, seen);
				if (at < 0) break;
				seen = at + waitFor.length;
				child.stdin.write(`${answer}\r`);
				next++;
			}
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			assert.equal(next, steps.length, `every step answered; the screen was:\n${screen}`);
			resolve({ code, stdout: screen, stderr: '' });
		});
	});
}

test('without a terminal a form is declined, saying why and which --answer would answer it', async () => {
	const result = await run(['call', 'everything', 'trigger-elicitation-request'], everythingWorkspace());
	assert.equal(result.code, 0, result.stderr);
	assert.match(result.stdout, /User declined/);
	assert.match(result.stderr, /^everything asks: Please provide inputs/m);
	assert.match(
		result.stderr,
		/Declined: there is no terminal to answer in, and --answer does not fill the required field name .*--answer name=VALUE/,
	);
});

test('--json and --no-input never prompt: the form is declined with the reason on stderr, stdout stays JSON', async () => {
	const json = await run(['--json', 'call', 'everything', 'trigger-elicitation-request'], everythingWorkspace());
	assert.equal(json.code, 0, json.stderr);
	assert.match(JSON.stringify(JSON.parse(json.stdout)), /declined/);
	assert.match(json.stderr, /Declined: --json output does not prompt/);
	const noInput = await run(['--no-input', 'call', 'everything', 'trigger-elicitation-request'], everythingWorkspace());
	assert.match(noInput.stderr, /Declined: --no-input was given/);
});

test('--answer answers the form for CI: values typed per field, defaults kept; a bad value declines naming the rule', async () => {
	const dir = everythingWorkspace();
	const answered = await run(
		[
			'call',
			'everything',
			'trigger-elicitation-request',
			'--answer',
			'name=Ada Lovelace',
			'--answer',
			'check=yes',
			'--answer',
			'integer=7',
			'--answer',
			'untitledMultipleSelectEnum=Piano,Drums',
			'--answer',
			'titledSingleSelectEnum=Green Lantern',
		],
		dir,
	);
	assert.equal(answered.code, 0, answered.stderr);
	const raw = JSON.parse(answered.stdout.slice(answered.stdout.indexOf('{'))) as {
		action: string;
		content: Record<string, unknown>;
	};
	assert.equal(raw.action, 'accept');
	assert.equal(raw.content.name, 'Ada Lovelace');
	assert.equal(raw.content.check, true);
	assert.equal(raw.content.integer, 7, 'a number, not "7"');
	assert.deepEqual(raw.content.untitledMultipleSelectEnum, ['Piano', 'Drums']);
	assert.equal(raw.content.titledSingleSelectEnum, 'hero-2', 'a choice given by its title sends its value');
	assert.equal(raw.content.firstLine, 'It was a dark and stormy night.', 'the default is kept');

	const bad = await run(
		[
			'call',
			'everything',
			'trigger-elicitation-request',
			'--answer',
			'name=Ada',
			'--answer',
			'email=ada@',
			'--answer',
			'integer=700',
		],
		dir,
	);
	assert.match(bad.stdout, /User declined/);
	assert.match(bad.stderr, /--answer email=ada@: Enter an email address/);
	assert.match(bad.stderr, /--answer integer=700: Enter a number between 1 and 100 \(must be at most 100\)/);
});

test('without a terminal a page is not opened: the URL is printed and the request declined', async () => {
	const result = await run(
		['call', 'everything', 'trigger-url-elicitation', '--args', '{"url":"https://example.com/consent?a=1%262"}'],
		everythingWorkspace(),
	);
	assert.match(result.stderr, /everything asks you to open a page on example\.com/);
	assert.match(result.stderr, /^ {2}https:\/\/example\.com\/consent\?a=1%262$/m, 'the URL exactly as sent');
	assert.match(result.stderr, /Declined: there is no terminal to answer in/);
});

test('in a terminal each field is asked in turn, a wrong answer is explained and asked again, and the answers are sent after a yes', async () => {
	const result = await runInTerminal(['call', 'everything', 'trigger-elicitation-request'], everythingWorkspace(), [
		['(text, required): ', ''],
		['String is required', 'Ada'],
		['(y/n)', 'y'],
		['[It was a dark and stormy night.]: ', ''],
		['(email, optional): ', 'ada@'],
		['Enter an email address', 'ada@example.com'],
		['(uri, optional): ', ''],
		['(date, optional): ', '1815-02-30'],
		['Enter a date as YYYY-MM-DD', '1815-12-10'],
		['[42]: ', '0x10'],
		['Enter a whole number', '7'],
		['[3.14]: ', ''],
		['6) Phoebe', '2'],
		['[Guitar]: ', '1,3'],
		['[Superman]: ', ''],
		['[Tuna]: ', ''],
		['[Cats]: ', 'Dogs'],
		['Send? ', 'y'],
	]);
	assert.equal(result.code, 0, result.stdout);
	assert.match(result.stdout, /Will be sent:[\s\S]*String with date format: 1815-12-10/);
	const raw = JSON.parse(result.stdout.slice(result.stdout.indexOf('Raw result: ') + 12).replace(/\r/g, '')) as {
		action: string;
		content: Record<string, unknown>;
	};
	assert.deepEqual(raw, {
		action: 'accept',
		content: {
			name: 'Ada',
			check: true,
			firstLine: 'It was a dark and stormy night.',
			email: 'ada@example.com',
			birthdate: '1815-12-10',
			integer: 7,
			number: 3.14,
			untitledSingleSelectEnum: 'Rachel',
			untitledMultipleSelectEnum: ['Guitar', 'Violin'],
			titledSingleSelectEnum: 'hero-1',
			titledMultipleSelectEnum: ['fish-1'],
			legacyTitledEnum: 'pet-2',
		},
	});
});

test('in a terminal n declines the form', async () => {
	const result = await runInTerminal(
		['call', 'everything', 'trigger-elicitation-request', '--answer', 'name=Ada'],
		everythingWorkspace(),
		[
			['(y/n)', ''],
			['[It was', ''],
			['(email, optional): ', ''],
			['(uri, optional): ', ''],
			['(date, optional): ', ''],
			['[42]: ', ''],
			['[3.14]: ', ''],
			['[Monica]: ', ''],
			['[Guitar]: ', ''],
			['[Superman]: ', ''],
			['[Tuna]: ', ''],
			['[Cats]: ', ''],
			['Send? ', 'n'],
		],
	);
	assert.doesNotMatch(result.stdout, /\(text, required\)/, 'a field given by --answer is not asked');
	assert.match(result.stdout, /User declined/);
});

test('in a terminal a page is opened only after a yes; Enter alone declines', async () => {
	const args = ['call', 'everything', 'trigger-url-elicitation', '--args', '{"url":"https://example.com/auth"}'];
	const declined = await runInTerminal(args, everythingWorkspace(), [['Open example.com? [y/N]: ', '']]);
	assert.doesNotMatch(declined.stdout, /Opening /);
	assert.match(declined.stdout, /"action": "decline"/);
	const opened = await runInTerminal(args, everythingWorkspace(), [['Open example.com? [y/N]: ', 'y']]);
	assert.match(opened.stdout, /^Opening https:\/\/example\.com\/auth\r?$/m);
	assert.match(opened.stdout, /User completed the URL elicitation flow/);
});

test("a password field of the TypeScript SDK's example server is not echoed, and its rules are checked", async () => {
	const dir = workspace({ forms: { type: 'http', url: formServerUrl } });
	const secret = 'hunter2-correct-horse';
	const result = await runInTerminal(['call', 'forms', 'register_user'], dir, [
		['Username — ', 'ada'],
		['Email — ', 'ada@example.com'],
		['Password — ', 'short'],
		['At least 8 characters', secret],
		['Newsletter — ', ''],
		['Role — ', ''],
		['Interests — ', '2'],
		['Send? ', 'y'],
	]);
	assert.equal(result.code, 0, result.stdout);
	assert.match(result.stdout, /Registration successful!/);
	assert.ok(!result.stdout.includes(secret), `the password never reached the screen:\n${result.stdout}`);
	assert.ok(!result.stdout.includes('short'), 'not even the refused one');
	assert.match(result.stdout, /Password looks like a secret: what you type is not shown/);
	assert.match(result.stdout, /Password: •+/, 'the review masks it');
});

test('--help names --answer and --no-input and says how forms are answered', async () => {
	const result = await run(['--help'], scratch);
	assert.match(result.stdout, /--answer FIELD=VALUE/);
	assert.match(result.stdout, /--no-input/);
	assert.match(result.stdout, /Sampling is declined: this command line has no model\./);
});
