// Shared TypeBox building blocks. Formats are registered with Ajv in app.ts (see `ajvFormats`).
import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { isAddress, looksLikeEnsName } from './address.js';

export const ADDRESS_MESSAGE = 'must be an Ethereum address: 0x followed by 40 hex characters (mixed case must pass its EIP-55 checksum)';

export const EthAddress = (opts: { description?: string } = {}) =>
  Type.String({ format: 'eth-address', examples: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'], ...opts });

export const ADDRESS_OR_ENS_MESSAGE =
  'must be an Ethereum address (0x followed by 40 hex characters; mixed case must pass its EIP-55 checksum) or an ENS name such as vitalik.eth';
/** What every field that takes a name says about it in the OpenAPI document. */
export const ENS_NOTE =
  'An ENS name (e.g. `vitalik.eth`) is accepted too and resolved over the mainnet JSON-RPC (CREDENCE_RPC_URL_1) before the call: ' +
  'without that setting a name gets 400 `validation_failed`; a name with no resolver or no address record gets 404 `not_found`; ' +
  'a failing RPC gets 502 `upstream_unavailable`. Responses carry the resolved address, checksummed.';
/**
 * An address, or an ENS name resolved to one before the handler runs (src/platform/ens.ts): handlers always see
 * a 0x address. For inputs that name a wallet; responses keep EthAddress.
 */
export const AddressOrEns = (opts: { description?: string } = {}) =>
  Type.String({
    format: 'eth-address-or-ens',
    maxLength: 255,
    examples: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', 'vitalik.eth'],
    ...opts,
    description: opts.description ? `${opts.description}. ${ENS_NOTE}` : ENS_NOTE,
  });
export const Uuid = (opts: { description?: string } = {}) => Type.String({ format: 'uuid', ...opts });
/** ISO 8601 UTC on the wire; handlers may return Date objects (the serializer formats them). */
export const Timestamp = (opts: { description?: string; examples?: string[] } = {}) =>
  Type.Unsafe<Date | string>({ type: 'string', format: 'date-time', ...opts });
export const TxHash = () => Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: '0x followed by 64 hex characters' });

/** OpenAPI 3.0 has no `null` type: nullable fields carry `nullable: true`, which Ajv and the serializer honour. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, nullable: true });
}

export const FieldErrorSchema = Type.Object({ field: Type.String(), message: Type.String() });
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'machine-readable error code', examples: ['validation_failed'] }),
    details: Type.String({ description: 'human-readable explanation' }),
    fields: Type.Optional(Type.Array(FieldErrorSchema, { description: 'every offending field (validation errors only)' })),
  },
  { $id: 'ErrorBody', title: 'Error' },
);

export const ajvFormats: Record<string, (v: string) => boolean> = {
  'eth-address': isAddress,
  'eth-address-or-ens': (v) => isAddress(v) || looksLikeEnsName(v),
};

/**
 * A 200 that is an HTML page. Declared per response (not with route-level `produces`), so the route's error
 * responses stay application/json in the OpenAPI document, as they are on the wire.
 */
export const HtmlPage = (description = 'HTML page') => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
