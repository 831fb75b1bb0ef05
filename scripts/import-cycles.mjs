// Part of `npm run lint`: fails when the files under src/ import each other in a circle, counting `import type`
// too. ESLint's import-x/no-cycle catches the run-time circles but skips type-only imports by design; a circle of
// types still ties two layers together (the three circles broken in the feature-folder split were of that kind).
// Uses TypeScript's own import scanner (typescript is already a dev dependency), no extra package.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const srcDir = join(root, 'src');

function sourceFiles(dir) {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
	});
}

/** The file a relative specifier names (`./x` → x.ts or x/index.ts), or undefined for packages. */
function resolveImport(from, specifier) {
	if (!specifier.startsWith('.')) return undefined;
	const base = resolve(dirname(from), specifier);
	for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]) {
		if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
	}
	return undefined;
}

const files = sourceFiles(srcDir);
const graph = new Map(
	files.map((file) => {
		const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
		const targets = importedFiles.map((i) => resolveImport(file, i.fileName)).filter((t) => t !== undefined);
		return [file, [...new Set(targets)]];
	}),
);

// Tarjan's strongly connected components: every component of more than one file (or a file importing itself)
// is at least one circle.
let index = 0;
const indices = new Map();
const lowlinks = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function connect(file) {
	indices.set(file, index);
	lowlinks.set(file, index);
	index++;
	stack.push(file);
	onStack.add(file);
	for (const next of graph.get(file) ?? []) {
		if (!indices.has(next)) {
			connect(next);
			lowlinks.set(file, Math.min(lowlinks.get(file), lowlinks.get(next)));
		} else if (onStack.has(next)) {
			lowlinks.set(file, Math.min(lowlinks.get(file), indices.get(next)));
		}
	}
	if (lowlinks.get(file) === indices.get(file)) {
		const component = [];
		let member;
		do {
			member = stack.pop();
			onStack.delete(member);
			component.push(member);
		} while (member !== file);
		if (component.length > 1 || (graph.get(file) ?? []).includes(file)) components.push(component);
	}
}
for (const file of files) if (!indices.has(file)) connect(file);

/** One concrete circle inside a component, for the message: a shortest path from its first file back to itself. */
function circleIn(component) {
	const members = new Set(component);
	const start = component[0];
	const previous = new Map([[start, undefined]]);
	const queue = [start];
	while (queue.length > 0) {
		const file = queue.shift();
		for (const next of graph.get(file) ?? []) {
			if (!members.has(next)) continue;
			if (next === start) {
				const path = [file];
				while (previous.get(path[0]) !== undefined) path.unshift(previous.get(path[0]));
				return [...path, start];
			}
			if (!previous.has(next)) {
				previous.set(next, file);
				queue.push(next);
			}
		}
	}
	return component;
}

if (components.length > 0) {
	for (const component of components) {
		console.error(
			`import cycle (type imports count): ${circleIn(component)
				.map((f) => relative(root, f))
				.join(' → ')}`,
		);
	}
	console.error(
		`${components.length} import cycle(s) in src/: move the shared types or code into a file both sides import.`,
	);
	process.exit(1);
}
console.log(`import-cycles: no cycles among ${files.length} files in src/`);
