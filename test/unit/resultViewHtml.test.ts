// The result view's page (src/vscode/shared/resultViewHtml.ts): what a person sees of a tool's result, built as HTML
// in plain Node. Images inline as images, server text never as markup, the call's actions present.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resultViewHtml, type ShownCall } from '../../src/vscode/shared/resultViewHtml';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function call(content: unknown[], extra: Partial<ShownCall['result']> = {}): ShownCall {
	return {
		server: 'everything',
		tool: 'get-tiny-image',
		arguments: { a: 1 },
		result: { content, ...extra },
		origin: 'palette',
	};
}

test('an image block is an <img> with a data URI the page policy allows, with a readable alt text', () => {
	const page = resultViewHtml(
		call([{ type: 'image', data: PNG, mimeType: 'image/png' }]),
		'n0nce',
		'vscode-resource:',
		true,
	);
	assert.match(page.html, /<img src="data:image\/png;base64,iVBOR[^"]*" alt="Image 1 \(image\/png, [\d.]+ B\)">/);
	assert.match(page.html, /img-src data:/);
	assert.doesNotMatch(page.html, /click to open/);
	assert.equal(page.links[0]?.kind, 'blob', 'Open as File saves the image');
});

test('an image with a type or data that would break out of the attribute is not inlined', () => {
	const page = resultViewHtml(
		call([
			{ type: 'image', data: '" onerror="alert(1)', mimeType: 'image/png' },
			{ type: 'image', data: PNG, mimeType: 'text/html' },
		]),
		'n',
		'c',
		true,
	);
	assert.doesNotMatch(page.html, /<img/);
	assert.doesNotMatch(page.html, /onerror="alert/);
});

test('server text is escaped, structured content and arguments are shown as JSON, isError is said at the top', () => {
	const page = resultViewHtml(
		call([{ type: 'text', text: '<script>alert(1)</script>' }], { structuredContent: { temp: 21 }, isError: true }),
		'n',
		'c',
		false,
	);
	assert.doesNotMatch(page.html, /<script>alert/);
	assert.match(page.html, /&#60;script&#62;alert\(1\)/);
	assert.match(page.html, /role="alert"><strong>Error:/);
	assert.match(page.html, /Structured content<\/h2><pre class="json">\{\n {2}&#34;temp&#34;: 21\n\}/);
	assert.match(page.html, /Arguments<\/h2>\s*<pre class="json">/);
	assert.match(page.summary, /^get-tiny-image · everything\nError\n<script>/);
});

test('the page offers Run Again and Edit Arguments, and Keep Open only while it is the preview tab', () => {
	const preview = resultViewHtml(call([]), 'n', 'c', true).html;
	const kept = resultViewHtml(call([]), 'n', 'c', false).html;
	for (const html of [preview, kept]) {
		assert.match(html, /<button id="runAgain"[^>]*>Run Again<\/button>/);
		assert.match(html, /<button id="edit"[^>]*>Edit Arguments<\/button>/);
	}
	assert.match(preview, />Keep Open</);
	assert.doesNotMatch(kept, />Keep Open</);
});

test('a resource link is a button that opens the resource', () => {
	const page = resultViewHtml(
		call([{ type: 'resource_link', uri: 'test://static/resource/1', name: 'Resource 1' }]),
		'n',
		'c',
		true,
	);
	assert.match(page.html, /<button class="link" data-link="0"[^>]*>Resource 1<\/button>/);
	assert.deepEqual(page.links[0], { kind: 'resource', uri: 'test://static/resource/1', name: 'Resource 1' });
});
