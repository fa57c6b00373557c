// TypeBox schemas of the sanctions routes.
import { Type, type Static } from '@sinclair/typebox';
import { AddressOrEns, Nullable, Timestamp, Uuid } from '../../platform/http/schemas.js';

export const SanctionsCheckBody = Type.Object({
  walletAddress: AddressOrEns({ description: 'address to screen; any case, a mixed-case address must pass its EIP-55 checksum' }),
});

export const SanctionsAddressParams = Type.Object({
  address: AddressOrEns({ description: 'address to screen; any case, a mixed-case address must pass its EIP-55 checksum' }),
});

export const SanctionsResult = Type.Object(
  {
    walletAddress: Type.String({ description: 'the screened address in EIP-55 checksum form' }),
    sanctioned: Type.Boolean({ description: 'true when the address is on the OFAC SDN list in force' }),
    checkedAt: Timestamp({ description: 'when this check was made' }),
    source: Type.String({ description: 'the list screened against', examples: ['OFAC SDN List'] }),
    listPublishedAt: Timestamp({ description: "publication date of the list in force (OFAC's date of issue)" }),
    listVersion: Type.Integer({ description: 'version of the list in force (imports are numbered 1, 2, 3, ...)', examples: [1] }),
    listSource: Type.Union([Type.Literal('snapshot'), Type.Literal('import')], {
      description:
        'snapshot: the OFAC SDN snapshot shipped with the service (data/sanctions, 2024-09-27), loaded at first start; import: an official file imported or refreshed',
    }),
    entityName: Type.Optional(
      Type.String({ description: 'the SDN entry listing the address (only when sanctioned)', examples: ['TORNADO CASH'] }),
    ),
  },
  { title: 'SanctionsResult' },
);
export type SanctionsResultT = Static<typeof SanctionsResult>;

export const SanctionsList = Type.Object(
  {
    id: Uuid(),
    version: Type.Integer({ description: 'import order; the highest version is in force' }),
    source: Type.String({ examples: ['OFAC SDN List'] }),
    format: Type.Union([Type.Literal('sdn_advanced_xml'), Type.Literal('sdn_csv'), Type.Literal('snapshot')], {
      description: 'snapshot: the file shipped in data/sanctions, loaded at first start when no list was imported',
    }),
    publishedAt: Timestamp({ description: "OFAC's publication date (advanced XML DateOfIssue; for sdn.csv as given at import)" }),
    entryCount: Type.Integer({ description: 'distinct EVM addresses on the list' }),
    fileSha256: Type.String({ description: 'sha256 of the imported file' }),
    fileBytes: Type.Integer(),
    fileName: Nullable(Type.String()),
    importedBy: Type.String({ description: 'cli, refresh:<url>, or the admin address that uploaded it' }),
    importedAt: Timestamp(),
    recomputeDoneAt: Nullable(Timestamp({ description: 'when the wallets whose status this list changed had their scores recomputed' })),
    recomputedCount: Nullable(Type.Integer()),
  },
  { title: 'SanctionsList' },
);

export const ImportQuery = Type.Object({
  publishedAt: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}([T ][0-9:.]+(Z|[+-]\\d{2}:?\\d{2})?)?$',
      examples: ['2024-09-27'],
      description:
        'publication date for sdn.csv (which carries none); default the upload time. Ignored for advanced XML, which has its own DateOfIssue.',
    }),
  ),
  fileName: Type.Optional(Type.String({ maxLength: 200 })),
  force: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'import even if published before the list in force, or listing no EVM address (implies confirm)',
    }),
  ),
  confirm: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'replace the list in force even though the file drops most of its entries (more than half, and at least 10); without it such a file is refused with 409, naming how many entries it would drop',
    }),
  ),
});

export const SanctionsStaleness = Type.Object(
  {
    ageDays: Nullable(Type.Integer({ description: 'days since the list in force was published; null without a list' })),
    maxAgeDays: Type.Integer({ description: 'CREDENCE_SANCTIONS_MAX_AGE_DAYS' }),
    stale: Type.Boolean({ description: 'the list in force is older than maxAgeDays' }),
    warning: Nullable(Type.String({ description: 'what to do about a stale list; null when fresh' })),
  },
  {
    title: 'SanctionsStaleness',
    description: 'how old the list in force is (also in GET /health/ready and the metric credence_sanctions_list_stale)',
  },
);

export const ImportResponse = Type.Object({
  status: Type.Union([Type.Literal('imported'), Type.Literal('unchanged')], {
    description: 'unchanged: the file is identical to the list in force',
  }),
  list: SanctionsList,
});

export const ListsResponse = Type.Object({
  current: Nullable(SanctionsList),
  staleness: SanctionsStaleness,
  lists: Type.Array(SanctionsList, { description: 'the 20 most recent imports, newest first' }),
});
