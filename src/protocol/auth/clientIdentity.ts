/**
 * Who this client is to an authorization server: the configured (pre-registered) client, a Client ID Metadata
 * Document, or one registered through Dynamic Client Registration; and how it authenticates at the token endpoint.
 */
import { promises as fsPromises } from 'node:fs';
import { clientAuth } from './clientAuth';
import { OAuthStepError, type AuthorizationServerMetadata, type HttpContext } from './discovery';
import type { OAuthLib } from './oauthLib';
import { registerClient } from './registration';
import type { OAuthClientConfig, StoredClient } from './types';

/** What choosing a client identity needs from the provider. */
export interface ClientIdentityContext {
	config: OAuthClientConfig;
	/** `client_name` sent in Dynamic Client Registration. */
	clientName: string;
	/** oauth4webapi options for an endpoint. */
	libOptions(endpoint: string, http: HttpContext): OAuthLib.DynamicClientRegistrationRequestOptions;
	/** Keeps a dynamically registered client for the issuer. */
	saveClient(issuer: string, client: StoredClient): Promise<void>;
	info(message: string): void;
}

/** Pre-registered client from config, else a Client ID Metadata Document, else Dynamic Client Registration. */
export async function clientIdentity(
	context: ClientIdentityContext,
	as: AuthorizationServerMetadata,
	redirectUri: string,
	stored: StoredClient | undefined,
	scopes: string[] | undefined,
	http: HttpContext,
): Promise<StoredClient> {
	const config = context.config;
	const supported = as.token_endpoint_auth_methods_supported;
	if (config.clientId) {
		return preregisteredClient(config, as);
	}
	if (config.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
		context.info(`using the client metadata document ${config.clientMetadataUrl} as client id`);
		return { kind: 'cimd', clientId: config.clientMetadataUrl, tokenEndpointAuthMethod: 'none' };
	}
	if (stored?.kind === 'dcr' && stored.redirectUris?.includes(redirectUri)) {
		return stored;
	}
	if (!as.registration_endpoint) {
		throw new OAuthStepError(
			'client registration',
			`${as.issuer} offers neither Dynamic Client Registration nor${config.clientMetadataUrl ? '' : ' (with a configured clientMetadataUrl)'} Client ID Metadata Documents; configure a client id for this server`,
		);
	}
	const method: StoredClient['tokenEndpointAuthMethod'] =
		!supported || supported.includes('none')
			? 'none'
			: supported.includes('client_secret_basic')
				? 'client_secret_basic'
				: 'client_secret_post';
	const client = await registerClient(
		as,
		{
			clientName: context.clientName,
			redirectUri,
			tokenEndpointAuthMethod: method,
			scopes,
		},
		context.libOptions(as.registration_endpoint, http),
	);
	await context.saveClient(as.issuer, client);
	// https://modelcontextprotocol.io/specification/2026-07-28/deprecated: DCR stays "available for backwards
	// compatibility with authorization servers that do not support Client ID Metadata Documents".
	context.info(
		`registered as a client of ${as.issuer} (auth method ${client.tokenEndpointAuthMethod}) through Dynamic Client Registration, which MCP 2026-07-28 deprecates in favour of Client ID Metadata Documents (set "oauth.clientMetadataUrl" where the authorization server supports them); it keeps working`,
	);
	return client;
}

/** The client that obtained a stored session, if the configuration still names it (else: authorize again). */
export async function sessionClient(
	config: OAuthClientConfig,
	session: {
		issuer: string;
		metadata: AuthorizationServerMetadata;
		clientKind: StoredClient['kind'];
		clientId: string;
	},
	readStoredClient: (issuer: string) => Promise<StoredClient | undefined>,
): Promise<StoredClient | undefined> {
	switch (session.clientKind) {
		case 'preregistered':
			return config.clientId === session.clientId ? preregisteredClient(config, session.metadata) : undefined;
		case 'cimd':
			return config.clientMetadataUrl === session.clientId
				? { kind: 'cimd', clientId: session.clientId, tokenEndpointAuthMethod: 'none' }
				: undefined;
		case 'dcr': {
			const stored = await readStoredClient(session.issuer);
			return stored?.clientId === session.clientId ? stored : undefined;
		}
		default:
			return undefined;
	}
}

/**
 * The pre-registered client of the configuration. Its auth method: the configured one, else `private_key_jwt` with
 * a private key, `none` without a secret, and with a secret `client_secret_basic` when the server lists it (an
 * absent list means client_secret_basic, RFC 8414 section 2), else `client_secret_post`.
 */
export function preregisteredClient(config: OAuthClientConfig, as: AuthorizationServerMetadata): StoredClient {
	const supported = as.token_endpoint_auth_methods_supported;
	let method = config.tokenEndpointAuthMethod;
	if (!method) {
		method =
			config.privateKey || config.privateKeyFile
				? 'private_key_jwt'
				: !config.clientSecret
					? 'none'
					: !supported || supported.includes('client_secret_basic')
						? 'client_secret_basic'
						: 'client_secret_post';
	}
	if ((method === 'client_secret_basic' || method === 'client_secret_post') && !config.clientSecret) {
		throw new OAuthStepError(
			'client identity',
			`token endpoint auth method ${method} needs a client secret in the configuration`,
		);
	}
	return {
		kind: 'preregistered',
		clientId: config.clientId!,
		clientSecret: config.clientSecret,
		tokenEndpointAuthMethod: method,
	};
}

/** The oauth4webapi ClientAuth of a client, reading a configured private key file when it needs one. */
export async function configuredClientAuth(
	client: StoredClient,
	config: OAuthClientConfig,
): Promise<OAuthLib.ClientAuth> {
	let pem = config.privateKey;
	if (!pem && config.privateKeyFile && client.tokenEndpointAuthMethod === 'private_key_jwt') {
		try {
			pem = await fsPromises.readFile(config.privateKeyFile, 'utf8');
		} catch (error) {
			throw new OAuthStepError(
				'client authentication',
				`the private key file ${config.privateKeyFile} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
			);
		}
	}
	return clientAuth(client, { pem, algorithm: config.signingAlgorithm });
}
