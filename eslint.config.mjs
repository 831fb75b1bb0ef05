// ESLint (flat config): typescript-eslint's type-checked basics, the layering of docs/architecture.md as rules, and
// no import cycles. `npm run lint` runs it; CI (.ci/run) runs it before the tests.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The feature folders of src/vscode, lowest first (docs/architecture.md, "src/vscode"): a folder imports `shared/`, the
 * top-level plumbing and folders of a lower tier, never one of its own tier or above; `shared/` imports none of them.
 */
const vscodeFeatureTiers = [
	['serverInput', 'logs', 'trust'],
	['auth', 'tasks', 'resources', 'elicitation', 'sampling', 'pinning', 'world'],
	['tools', 'prompts', 'skills'],
	['chat', 'tree', 'console', 'gateway', 'serverSetup', 'workbench'],
];
const vscodeFeatureZones = [
	{
		target: './src/vscode/shared',
		from: vscodeFeatureTiers.flat().map((folder) => `./src/vscode/${folder}`),
		message: 'src/vscode/shared is what features share: it imports no feature folder.',
	},
	...vscodeFeatureTiers.flatMap((tier, level) =>
		tier.map((folder) => ({
			target: `./src/vscode/${folder}`,
			from: vscodeFeatureTiers
				.slice(level)
				.flat()
				.filter((other) => other !== folder)
				.map((other) => `./src/vscode/${other}`),
			message: `src/vscode/${folder} may import only shared/, the plumbing and the feature folders below its tier (docs/architecture.md); move what two features share to src/vscode/shared/.`,
		})),
	),
];

/** Where `vscode` may be imported: the extension's edge, its entry point, and the suites that run inside VS Code. */
const vscodeAllowed = ['src/vscode/**', 'src/extension.ts', 'test/e2e/**'];

export default tseslint.config(
	{
		ignores: ['out/**', 'dist/**', 'node_modules/**', '.bench/**', 'test-results/**', '.vscode-test/**', '*.vsix'],
	},
	js.configs.recommended,
	{
		// Every TypeScript file is checked with type information (tsconfig.json includes src, test and bench).
		files: ['**/*.ts'],
		extends: [tseslint.configs.recommendedTypeChecked],
		languageOptions: {
			parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			// A promise nobody awaits or catches loses its rejection: an error the user never sees.
			// node:test's test()/describe() return promises the runner itself awaits.
			'@typescript-eslint/no-floating-promises': [
				'error',
				{
					allowForKnownSafeCalls: [
						{
							from: 'package',
							package: 'node:test',
							name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
						},
					],
				},
			],
			'@typescript-eslint/no-misused-promises': 'error',
			// Rejecting with what was caught, or with an AbortSignal's reason (typed `any`), passes the original on unchanged.
			'@typescript-eslint/prefer-promise-reject-errors': [
				'error',
				{ allowThrowingAny: true, allowThrowingUnknown: true },
			],
			// An `async` method that does not await still keeps a Promise-returning contract (interfaces, fakes).
			'@typescript-eslint/require-await': 'off',
			// `'endTurn' | string` documents the known values of an open set, on purpose.
			'@typescript-eslint/no-redundant-type-constituents': 'off',
			// `_name` marks a parameter kept for its position in a signature.
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
			],
		},
	},
	{
		// Scripts, the bench and the test runner are plain Node ES modules (no type information: tsconfig does not
		// include them), so they get ESLint's own recommended rules with Node's globals.
		files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
		},
	},
	{
		// Small files and functions (CONTRIBUTING, "Lint rules"): a file over 700 lines or a function over 120 holds more
		// than one idea. Every line counts, blank and comment lines too, so the rule says what `wc -l` says.
		files: ['src/**/*.ts'],
		rules: {
			'max-lines': ['error', { max: 700, skipBlankLines: false, skipComments: false }],
			'max-lines-per-function': ['error', { max: 120, skipBlankLines: false, skipComments: false, IIFEs: true }],
		},
	},
	{
		// Known exceptions, each with its reason; remove an entry once its file is split (#25).
		files: [
			// Declarative zod schema boilerplate: one function builds every schema so they share one module's cache.
			'src/protocol/schemaBuild.ts',
			// Webview documents (HTML, CSS and script in one template literal), changed in this wave by #34 (protocol
			// view) and the MCP Apps work; their CSS and scripts are to move into constants of their own.
			'src/vscode/console/protocolViewHtml.ts',
			'src/vscode/console/apps/appPanelHtml.ts',
		],
		rules: { 'max-lines-per-function': 'off' },
	},
	{
		// Layering. `vscode` only at the edge; everything else runs in plain Node (dist/core.js, the tests, the CLI).
		files: ['**/*.ts', '**/*.mjs', '**/*.js'],
		ignores: vscodeAllowed,
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [
						{
							name: 'vscode',
							message: 'Only src/vscode/** and src/extension.ts may import vscode (docs/architecture.md, "Layers").',
						},
					],
				},
			],
		},
	},
	{
		files: ['src/**/*.ts'],
		plugins: { 'import-x': importX },
		settings: {
			// import-x reads the imported files itself: it must parse TypeScript and resolve extensionless `./x` to x.ts.
			'import-x/extensions': ['.ts', '.js'],
			'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
			'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json', '.node'] })],
		},
		rules: {
			// The layers point one way: common <- protocol <- manager <- gateway / cli / vscode, and the headless core,
			// the gateway and the CLI never reach the VS Code edge.
			'import-x/no-restricted-paths': [
				'error',
				{
					basePath: import.meta.dirname,
					zones: [
						{
							target: './src/common',
							from: ['./src/protocol', './src/manager', './src/vscode', './src/extension.ts'],
							message: 'src/common is shared by every layer and imports none of them.',
						},
						{
							target: './src/protocol',
							from: ['./src/manager', './src/gateway', './src/cli', './src/vscode', './src/extension.ts'],
							message: 'src/protocol imports nothing from the Manager or the VS Code edge.',
						},
						{
							target: './src/manager',
							from: ['./src/vscode', './src/extension.ts'],
							message: 'src/manager imports nothing from the VS Code edge.',
						},
						{
							target: './src/core.ts',
							from: ['./src/vscode', './src/extension.ts'],
							message: 'The headless API (dist/core.js) must not reach the VS Code edge.',
						},
						{
							target: './src/manager',
							from: ['./src/gateway', './src/cli'],
							message: 'src/manager is below the gateway and the CLI, which use it.',
						},
						{
							target: './src/gateway',
							from: ['./src/vscode', './src/extension.ts', './src/cli'],
							message: 'src/gateway runs in plain Node (the VS Code side is src/vscode/gateway).',
						},
						{
							target: './src/cli',
							from: ['./src/vscode', './src/extension.ts'],
							message: 'The CLI runs in plain Node, without VS Code.',
						},
						...vscodeFeatureZones,
					],
				},
			],
			// Import cycles make load order matter and layers blur; type-only imports count too (they still tie files).
			'import-x/no-cycle': ['error', { ignoreExternal: true }],
		},
	},
);
