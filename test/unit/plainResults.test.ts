// The structural checks of plainResults.ts against the zod schemas they stand in for: each accepts exactly what its
// schema accepts (the schema is what runs when a check says no, so a check may never say yes where it would not).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
	isPlainInitializeResult,
	isPlainListPromptsResult,
	isPlainListResourcesResult,
	isPlainListResourceTemplatesResult,
} from '../../src/protocol/plainResults';
import { schemas } from '../../src/protocol/schema';

function sameVerdicts(
	check: (value: Record<string, unknown>) => boolean,
	schema: { safeParse(value: unknown): { success: boolean } },
	samples: Record<string, unknown>[],
	expected: boolean[],
): void {
	const verdicts = samples.map((sample) => check(sample));
	assert.deepEqual(verdicts, expected);
	assert.deepEqual(
		samples.map((sample) => schema.safeParse(sample).success),
		verdicts,
		'the schema agrees on every sample',
	);
}

const icon = { src: 'https://x/i.png', mimeType: 'image/png', sizes: ['16x16'], theme: 'light' };

test('initialize results: the structural check accepts exactly what InitializeResultSchema accepts', () => {
	const ok = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } };
	const samples: Record<string, unknown>[] = [
		ok,
		{
			...ok,
			capabilities: {
				experimental: { x: 1 },
				logging: {},
				completions: {},
				prompts: { listChanged: true },
				resources: { subscribe: true, listChanged: false },
				tools: { listChanged: true },
				tasks: { list: {} },
				other: 1,
			},
			serverInfo: {
				name: 's',
				version: '1',
				title: 'S',
				description: 'd',
				websiteUrl: 'https://s',
				icons: [icon],
				extra: true,
			},
			instructions: 'use it',
			_meta: { k: 1 },
			extra: [1],
		},
		{ ...ok, protocolVersion: 20251125 },
		{ ...ok, capabilities: [] },
		{ ...ok, capabilities: { tools: { listChanged: 'yes' } } },
		{ ...ok, capabilities: { resources: { subscribe: 1 } } },
		{ ...ok, capabilities: { logging: true } },
		{ ...ok, serverInfo: { name: 's' } },
		{ ...ok, serverInfo: { name: 's', version: '1', icons: [{ src: 1 }] } },
		{ ...ok, serverInfo: { name: 's', version: '1', websiteUrl: null } },
		{ ...ok, instructions: 7 },
		{ ...ok, _meta: 'm' },
		{ capabilities: {}, serverInfo: { name: 's', version: '1' } },
	];
	sameVerdicts(isPlainInitializeResult, schemas().InitializeResultSchema, samples, [
		true,
		true,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
		false,
	]);
});

test('resource, template and prompt lists: the structural checks accept exactly what their schemas accept', () => {
	const resource = { uri: 'file:///a', name: 'a' };
	sameVerdicts(
		isPlainListResourcesResult,
		schemas().ListResourcesResultSchema,
		[
			{ resources: [] },
			{
				resources: [
					{
						...resource,
						title: 'A',
						description: 'd',
						mimeType: 'text/plain',
						size: 3,
						annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-01' },
						icons: [icon],
						_meta: {},
						x: 1,
					},
				],
				nextCursor: 'n',
				_meta: {},
			},
			{ resources: [{ name: 'a' }] },
			{ resources: [{ ...resource, size: '3' }] },
			{ resources: [{ ...resource, annotations: { audience: 'user' } }] },
			{ resources: [{ ...resource, annotations: { priority: 'high' } }] },
			{ resources: [resource], nextCursor: 1 },
			{ resources: {} },
		],
		[true, true, false, false, false, false, false, false],
	);
	const template = { uriTemplate: 'file:///{p}', name: 't' };
	sameVerdicts(
		isPlainListResourceTemplatesResult,
		schemas().ListResourceTemplatesResultSchema,
		[
			{
				resourceTemplates: [
					template,
					{ ...template, title: 'T', mimeType: 'text/plain', annotations: {}, icons: [icon] },
				],
			},
			{ resourceTemplates: [{ ...template, uriTemplate: undefined }] },
			{ resourceTemplates: [{ ...template, name: 2 }] },
			{ resourceTemplates: [{ ...template, _meta: [] }] },
		],
		[true, false, false, false],
	);
	const prompt = { name: 'p' };
	sameVerdicts(
		isPlainListPromptsResult,
		schemas().ListPromptsResultSchema,
		[
			{
				prompts: [
					prompt,
					{
						...prompt,
						title: 'P',
						description: 'd',
						arguments: [{ name: 'a', title: 'A', description: 'd', required: true, x: 1 }],
						icons: [icon],
						_meta: {},
					},
				],
			},
			{ prompts: [{ ...prompt, arguments: {} }] },
			{ prompts: [{ ...prompt, arguments: [{ required: true }] }] },
			{ prompts: [{ ...prompt, arguments: [{ name: 'a', required: 'yes' }] }] },
			{ prompts: [{ title: 'no name' }] },
			{},
		],
		[true, false, false, false, false, false],
	);
});
