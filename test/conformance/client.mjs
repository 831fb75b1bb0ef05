// The client under test of the MCP conformance suite (@modelcontextprotocol/conformance): our headless API
// (dist/core.js) with the same OAuthProvider the extension uses. The suite starts it once per scenario as
// `<command> <server-url>`, with the scenario's name in MCP_CONFORMANCE_SCENARIO and, for scenarios that hand the
// client credentials, a JSON object in MCP_CONFORMANCE_CONTEXT. Exit code 0 means the client finished its work.
//
// The browser step is headless: the suite's authorization endpoint answers at once with a redirect to our
// redirect URI, so following the authorization URL with one GET (redirect: manual) yields the redirect the browser
// would land on. Everything else (discovery, registration, PKCE, token requests, refresh, step-up) is the product's.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const core = require('../../dist/core.js');

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
/** A Client ID Metadata Document URL, used when the authorization server supports CIMD (the suite's fixed one). */
const clientMetadataUrl = 'https://conformance-test.local/client-metadata.json';
const redirectUri = 'http://localhost:3000/callback';

if (!serverUrl) {
	console.error('usage: MCP_CONFORMANCE_SCENARIO=<name> node test/conformance/client.mjs <server-url>');
	process.exit(2);
}

/**
 * The spec version the scenario runs at (the suite sets MCP_CONFORMANCE_PROTOCOL_VERSION). A 2026-07-28 scenario is
 * pinned to it, as a user pins a server they want in that era: `auto` sends `initialize` first (see planConnect), which
 * the suite's 2026-07-28 mock records as a message of an older spec. Older scenarios run with `auto`.
 */
const harnessVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const modernPin = harnessVersion === '2026-07-28' ? harnessVersion : undefined;

const logger = core.consoleLogger(process.env.CONFORMANCE_LOG_LEVEL ?? 'debug', '[client] ');

/** Per scenario, the OAuth settings a user would put into the server's `oauth` block. */
function oauthConfig() {
	switch (context.name) {
		case 'auth/pre-registration':
			return { clientId: context.client_id, clientSecret: context.client_secret };
		case 'auth/client-credentials-basic':
			return { grant: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret };
		case 'auth/client-credentials-jwt':
			return {
				grant: 'client_credentials',
				clientId: context.client_id,
				privateKey: context.private_key_pem,
				signingAlgorithm: context.signing_algorithm,
				tokenEndpointAuthMethod: 'private_key_jwt',
			};
		case 'auth/enterprise-managed-authorization':
		case 'auth/cross-app-access-complete-flow': // its name in suite 0.1.x
			return {
				grant: 'enterprise',
				clientId: context.client_id,
				clientSecret: context.client_secret,
				enterprise: {
					idpIssuer: context.idp_issuer,
					idpTokenEndpoint: context.idp_token_endpoint,
					idpClientId: context.idp_client_id,
					idToken: context.idp_id_token,
				},
			};
		case 'auth/wif-jwt-bearer':
			return { grant: 'jwt_bearer', clientId: context.client_id, assertion: context.valid_jwt };
		default:
			return { clientMetadataUrl };
	}
}

/** The browser, headless: one GET of the authorization URL, and the redirect it answers with. */
async function followAuthorization(url) {
	const response = await fetch(url, { redirect: 'manual' });
	await response.body?.cancel();
	const location = response.headers.get('location');
	if (!location) {
		throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
	}
	return new URL(location, url).href;
}

let unrelatedCalled = false;

/** Accepts a form the way a person does who presses OK on the pre-filled form: every field at its default (or `fill`). */
function acceptDefaults(params, fill = {}) {
	const content = {};
	for (const [name, field] of Object.entries(params.requestedSchema?.properties ?? {})) {
		if (field && typeof field === 'object' && 'default' in field) {
			content[name] = field.default;
		} else if (name in fill) {
			content[name] = fill[name];
		}
	}
	return { action: 'accept', content };
}

async function main() {
	const auth = core.createOAuthProvider({
		serverUrl,
		name: 'conformance',
		config: oauthConfig(),
		logger,
		hooks: {
			store: new MapStore(),
			redirectUri: async () => redirectUri,
			openAuthorizationUrl: (url) => followAuthorization(url),
		},
	});
	let connected;
	const client = await core.connect(
		{ type: 'http', url: serverUrl },
		{
			name: 'conformance',
			logger,
			auth,
			timeoutMs: 20_000,
			protocolVersion: modernPin,
			handlers: {
				roots: () => [{ uri: 'file:///conformance', name: 'conformance' }],
				elicitation: async (params) => {
					// sep-2322-client-request-state: another call while a multi round-trip call waits for the user must carry
					// nothing of it (inputResponses and requestState belong to the retry only).
					if (scenario === 'sep-2322-client-request-state' && connected && !unrelatedCalled) {
						unrelatedCalled = true;
						await connected.callTool('test_mrtr_unrelated', {});
					}
					return acceptDefaults(params, { confirmed: true });
				},
			},
		},
	);
	connected = client;
	try {
		// A server without tools (the initialize scenario) is only connected to and closed again.
		const tools = client.serverCapabilities.tools ? await client.listTools() : [];
		logger.info(`tools: ${tools.map((t) => t.name).join(', ')}`);
		await exercise(client, tools);
	} finally {
		await client.close();
	}
}

/** What the client does once connected, per scenario (each scenario's server expects a particular call). */
async function exercise(client, tools) {
	const names = new Set(tools.map((t) => t.name));
	if (scenario === 'json-schema-2020-12-preservation') {
		const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
		if (!focal) throw new Error('json_schema_2020_12_tool not listed');
		await client.callTool('json_schema_echo', { schema: focal.inputSchema });
		return;
	}
	if (scenario === 'json-schema-ref-no-deref') {
		return;
	}
	// MCP 2026-07-28 scenarios: what a user of the tree would do with these servers.
	if (scenario === 'request-metadata') {
		// server/discover already went out (and was answered -32022 once, then retried); one more request of each kind.
		await client.callTool(tools[0]?.name ?? 'test', {}).catch((error) => logger.info(`tools/call: ${error.message}`));
		return;
	}
	if (scenario === 'sep-2322-client-request-state') {
		for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_no_result_type']) {
			const result = await client.callTool(name, {});
			logger.info(`${name}: ${JSON.stringify(result.content)}`);
		}
		return;
	}
	if (scenario === 'http-standard-headers' || scenario === 'http-invalid-tool-headers') {
		// Every tool listed (an invalid x-mcp-header tool is not listed), every resource, every prompt.
		for (const tool of tools) {
			await client.callTool(tool.name, sampleArguments(tool.inputSchema));
		}
		if (client.serverCapabilities.resources) {
			for (const resource of await client.listResources()) await client.readResource(resource.uri);
		}
		if (client.serverCapabilities.prompts) {
			for (const prompt of await client.listPrompts()) await client.getPrompt(prompt.name, {});
		}
		return;
	}
	if (Array.isArray(context.toolCalls)) {
		// http-custom-headers: the calls the scenario asks for, arguments as given.
		for (const call of context.toolCalls) {
			await client.callTool(call.name, call.arguments ?? {});
		}
		return;
	}
	if (names.has('test_client_elicitation_defaults')) {
		await client.callTool('test_client_elicitation_defaults', {});
		return;
	}
	if (names.has('test_reconnection')) {
		await client.callTool('test_reconnection', {});
		return;
	}
	if (names.has('test-tool')) {
		await client.callTool('test-tool', {});
		return;
	}
	if (scenario.startsWith('auth/')) {
		return;
	}
	const first = tools[0];
	if (first) {
		await client.callTool(first.name, { a: 2, b: 3 });
	}
}

/** Arguments a person would type: a value of the declared type for each required property. */
function sampleArguments(schema) {
	const args = {};
	for (const name of schema?.required ?? []) {
		const type = schema.properties?.[name]?.type;
		args[name] =
			type === 'integer' || type === 'number'
				? 1
				: type === 'boolean'
					? true
					: type === 'object'
						? {}
						: type === 'array'
							? []
							: 'us-west1';
	}
	return args;
}

/** The token store: memory, like the headless API's default. */
class MapStore {
	values = new Map();
	async get(key) {
		return this.values.get(key);
	}
	async set(key, value) {
		this.values.set(key, value);
	}
	async delete(key) {
		this.values.delete(key);
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(`[client] failed: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	},
);
