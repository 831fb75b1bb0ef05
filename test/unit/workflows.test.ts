// The GitHub Actions workflows of the public repository (.github/workflows), which cannot run here: parsed as YAML
// and checked for what would break them only on GitHub: the triggers, job order, the scripts they call, the step
// outputs they read, the secrets each publishing step gets, and actions pinned to a major version.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';

interface Step {
	id?: string;
	name?: string;
	uses?: string;
	run?: string;
	env?: Record<string, string>;
	with?: Record<string, unknown>;
}
interface Job {
	needs?: string | string[];
	'runs-on': string;
	steps: Step[];
	env?: Record<string, string>;
	outputs?: Record<string, string>;
	permissions?: Record<string, string>;
}
interface Workflow {
	name: string;
	on: Record<string, unknown>;
	jobs: Record<string, Job>;
	permissions?: Record<string, string>;
}

function workflow(file: string): Workflow {
	return parse(readFileSync(`.github/workflows/${file}`, 'utf8'), { strict: true, uniqueKeys: true }) as Workflow;
}

/** What every workflow must get right: runners, pinned actions, scripts that exist, outputs and jobs that exist. */
function checkCommon(file: string, flow: Workflow): void {
	assert.equal(typeof flow.name, 'string', `${file}: a name`);
	assert.ok(flow.permissions, `${file}: permissions are declared (least privilege), not the repository default`);
	for (const [jobName, job] of Object.entries(flow.jobs)) {
		const where = `${file} job ${jobName}`;
		assert.equal(job['runs-on'], 'ubuntu-latest', `${where}: runs-on`);
		for (const need of [job.needs ?? []].flat()) assert.ok(flow.jobs[need], `${where}: needs ${need}, which exists`);
		const ids = new Set(job.steps.map((s) => s.id).filter(Boolean));
		for (const step of job.steps) {
			assert.ok((step.uses === undefined) !== (step.run === undefined), `${where}: a step has uses or run`);
			if (step.uses) assert.match(step.uses, /^[\w-]+\/[\w-]+@v\d+$/, `${where}: ${step.uses} is pinned to a major`);
			for (const script of (step.run ?? '').matchAll(/\b((?:scripts|\.ci)\/[\w./-]+)/g)) {
				assert.ok(existsSync(script[1] ?? ''), `${where}: ${script[1]} exists in the repository`);
			}
		}
		const text = JSON.stringify(job);
		for (const ref of text.matchAll(/steps\.([\w-]+)\.outputs/g)) {
			assert.ok(ids.has(ref[1]), `${where}: reads the outputs of step ${ref[1]}, which it has`);
		}
		for (const ref of text.matchAll(/needs\.([\w-]+)\.outputs\.([\w-]+)/g)) {
			assert.ok(flow.jobs[ref[1] ?? '']?.outputs?.[ref[2] ?? ''], `${where}: job ${ref[1]} has output ${ref[2]}`);
		}
	}
}

test('ci.yml runs .ci/run on every push and pull request', () => {
	const flow = workflow('ci.yml');
	checkCommon('ci.yml', flow);
	assert.deepEqual(Object.keys(flow.on).sort(), ['pull_request', 'push']);
	const runs = Object.values(flow.jobs).flatMap((job) => job.steps.map((s) => s.run ?? ''));
	assert.ok(runs.includes('.ci/run'), 'a step runs .ci/run');
	assert.ok(
		Object.values(flow.jobs).every((job) => !JSON.stringify(job).includes('secrets.')),
		'CI uses no secrets',
	);
});

test('release.yml tests, packages and publishes both artifacts on a v* tag, each registry with its own secret', () => {
	const flow = workflow('release.yml');
	checkCommon('release.yml', flow);
	assert.deepEqual(flow.on, { push: { tags: ['v*'] } });
	const { build, publish } = flow.jobs;
	assert.ok(build && publish, 'a build job and a publish job');
	const buildRuns = build.steps.map((s) => s.run ?? '');
	const ciAt = buildRuns.indexOf('.ci/run');
	const packageAt = buildRuns.indexOf('node scripts/release.mjs --ci');
	assert.ok(ciAt >= 0 && packageAt > ciAt, 'the build job runs .ci/run, then packages with release.mjs --ci');
	assert.equal(publish.needs, 'build', 'publishing waits for the tested build');
	assert.equal(
		JSON.stringify(build).includes('secrets.'),
		false,
		'no secret reaches the job that runs the tests and code',
	);

	// Each publishing command, and the only secret its step gets.
	const expected: Array<[RegExp, string, string]> = [
		[/\bvsce@[\d.]+ publish --packagePath "release\/mcp-switchboard-\$VERSION\.vsix"/, 'VSCE_PAT', 'VSCE_PAT'],
		[/\bovsx@[\d.]+ publish "release\/mcp-switchboard-\$VERSION\.vsix"/, 'OVSX_PAT', 'OVSX_PAT'],
		[/^npm publish "release\/mcp-switchboard-\$VERSION\.tgz"/, 'NODE_AUTH_TOKEN', 'NPM_TOKEN'],
	];
	for (const [command, variable, secret] of expected) {
		const step: Step | undefined = publish.steps.find((s) => command.test(s.run ?? ''));
		assert.ok(step, `a publish step runs ${command}`);
		assert.deepEqual(step.env, { [variable]: `\${{ secrets.${secret} }}` }, `${step.name}: only ${secret}`);
	}
	assert.ok(!JSON.stringify(publish.env ?? {}).includes('secrets.'), 'no secret at the job level');
	assert.equal(publish.env?.VERSION, '${{ needs.build.outputs.version }}');
	// vsce needs Node 22, and setup-node's registry-url is what makes npm read NODE_AUTH_TOKEN.
	const setupNode = publish.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
	assert.equal(setupNode?.with?.['node-version'], 22);
	assert.equal(setupNode?.with?.['registry-url'], 'https://registry.npmjs.org');
	assert.equal(publish.permissions?.['id-token'], 'write', 'npm provenance needs an OIDC token');
});
